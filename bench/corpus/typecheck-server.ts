/**
 * A long-lived type-checker for the corpus (a child process per job slot): `tsc -p` over each
 * generated tree, as a user's project compiles it, but with the files that do not change between
 * descriptions (TypeScript's lib files, @types/node, the toolkit's own declaration files) parsed
 * once per process instead of once per description. The checking itself is tsc's: the same
 * tsconfig, the same program, `getPreEmitDiagnostics`. Asked over IPC: `{ dir }` in, `{ errors,
 * first }` out. A description that hangs the checker is the parent's to kill (it starts another).
 */
import path from 'node:path';
import ts from 'typescript';

interface Ask {
  dir: string;
}
export interface TypecheckAnswer {
  errors: number;
  /** The first error as tsc prints it (`file(line,col): error TSnnnn: text`). */
  first?: string;
  /** Anything that kept the check from running (an unreadable tsconfig). */
  failed?: string;
}

const shared = new Map<string, ts.SourceFile | undefined>();

function check(dir: string): TypecheckAnswer {
  const inside = path.resolve(dir) + path.sep;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) return { errors: 0, failed: 'tsconfig.json could not be read' };
  const host = ts.createCompilerHost(parsed.options, true);
  const read = host.getSourceFile.bind(host);
  // Only files outside the tree are kept: they are the same for every description.
  host.getSourceFile = (file, language, onError, fresh) => {
    if (path.resolve(file).startsWith(inside)) return read(file, language, onError, fresh);
    const key = `${typeof language === 'object' ? language.languageVersion : language}:${file}`;
    if (!shared.has(key)) shared.set(key, read(file, language, onError, fresh));
    return shared.get(key);
  };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host,
    configFileParsingDiagnostics: parsed.errors,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  const first = errors[0];
  if (!first) return { errors: 0 };
  const text = ts.flattenDiagnosticMessageText(first.messageText, '\n').split('\n')[0];
  let where = '';
  if (first.file && first.start !== undefined) {
    const { line, character } = first.file.getLineAndCharacterOfPosition(first.start);
    where = `${path.relative(dir, first.file.fileName)}(${line + 1},${character + 1}): `;
  }
  return { errors: errors.length, first: `${where}error TS${first.code}: ${text}` };
}

process.on('message', (ask: Ask) => {
  let answer: TypecheckAnswer;
  try {
    answer = check(ask.dir);
  } catch (err) {
    answer = { errors: 0, failed: `the type-checker threw: ${(err as Error).message}` };
  }
  process.send?.(answer);
});
