/** Syntax check of emitted TypeScript with the TypeScript compiler's parser. */
import type ts from 'typescript';

/** The first parse error of a file, with its line and an excerpt; undefined when it parses. */
export function syntaxError(
  compiler: typeof ts,
  file: { path: string; content: string },
): string | undefined {
  if (!/\.(ts|tsx|mts)$/.test(file.path)) return undefined;
  const source = compiler.createSourceFile(
    file.path,
    file.content,
    compiler.ScriptTarget.Latest,
    false,
    compiler.ScriptKind.TS,
  );
  const diagnostics =
    (source as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  const d = diagnostics[0];
  if (!d) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
  const excerpt = file.content.split('\n')[line]?.trim().slice(0, 160) ?? '';
  return `emitted ${file.path} does not parse: ${compiler.flattenDiagnosticMessageText(d.messageText, ' ')} at line ${line + 1}:${character + 1}\n  ${excerpt}`;
}
