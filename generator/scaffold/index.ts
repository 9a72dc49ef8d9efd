/**
 * `dataapi scaffold operation`: adds one operation (and its /demo preview variant) to the
 * description, creates its handler file once, and regenerates. Every refusal happens before
 * anything is written; the description is replaced atomically and only after the edited text
 * has been validated, normalised and linted.
 */
import { access, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate, type GenerateResult } from '../generate.ts';
import { parseSpecText, SpecError } from '../load.ts';
import { lintSpec } from '../lint/index.ts';
import { isObject } from '../../model/object.ts';
import { joinPointer } from '../../model/pointer.ts';
import {
  createHandler,
  handlerPath,
  handlerSource,
  serverImport,
  type HandlerFile,
} from './handler.ts';
import { plan } from './plan.ts';
import { ScaffoldError, type ScaffoldRequest } from './request.ts';
import { addOperations, type Insertion } from './yaml-edit.ts';

export { ScaffoldError, parseField, parseRateLimit, type ScaffoldRequest } from './request.ts';

export interface ScaffoldOptions {
  spec: string;
  /** Output folder to regenerate (default generated). */
  out?: string;
  /** Folder of implementer handler files (default handlers). */
  handlersDir?: string;
  dryRun?: boolean;
  /** Regenerate after editing (default true). */
  generate?: boolean;
}

export interface ScaffoldResult {
  id: string;
  spec: string;
  /** The operations added: method, path and JSON pointer. */
  added: { method: string; path: string; pointer: string }[];
  insertions: Insertion[];
  /** The edited description text (also in dry runs). */
  text: string;
  handler: HandlerFile;
  generated?: GenerateResult;
  /** Set when the description was changed but regeneration failed. */
  generateError?: Error;
}

/** The YAML description's text, and the path to show for it. */
async function readSpec(spec: string): Promise<{ file: string; shown: string; text: string }> {
  const file = path.resolve(spec);
  if (!/\.ya?ml$/i.test(file))
    throw new ScaffoldError(`${spec} is not a YAML file; dataapi scaffold edits YAML descriptions`);
  try {
    const text = await readFile(file, 'utf8');
    return { file, shown: path.relative(process.cwd(), file) || file, text };
  } catch (err) {
    throw new ScaffoldError(
      `cannot read ${spec} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

/**
 * Validates the edited text in place of the real file (load, normalise, lint), then swaps it in
 * atomically: a description that does not load, or an added operation that breaks a catalogue
 * rule, leaves the file as it was.
 */
async function replaceSpec(
  spec: { file: string; shown: string },
  text: string,
  added: ScaffoldResult['added'],
): Promise<void> {
  const temp = path.join(
    path.dirname(spec.file),
    `.${path.basename(spec.file)}.scaffold-${process.pid}.yaml`,
  );
  try {
    await writeFile(temp, text);
    let report;
    try {
      report = await lintSpec(temp);
    } catch (err) {
      // The description was already invalid (or the edit broke it): say so about the real file.
      if (err instanceof SpecError) throw new SpecError(spec.shown, err.problems, err.diagnostic);
      throw err;
    }
    const mine = report.findings.filter(
      (f) => f.severity === 'error' && added.some((a) => f.pointer.startsWith(a.pointer)),
    );
    if (mine.length > 0) {
      throw new Error(
        `internal error: the scaffolded operation breaks catalogue rules; nothing was written:\n${mine.map((f) => `  ${f.code} #${f.pointer}: ${f.message}`).join('\n')}`,
      );
    }
    await rename(temp, spec.file);
  } finally {
    await rm(temp, { force: true });
  }
}

export async function scaffold(
  req: ScaffoldRequest,
  options: ScaffoldOptions,
): Promise<ScaffoldResult> {
  const spec = await readSpec(options.spec);
  // Planned on the root file as written (that is the text being edited); the edited text is
  // validated as a whole before it replaces the file.
  const parsed = parseSpecText(spec.shown, spec.text);
  if (!isObject(parsed.raw)) throw new ScaffoldError(`${spec.shown} is not an OpenAPI description`);
  const planned = plan(parsed.raw, req);
  const edit = addOperations(
    spec.text,
    planned.entries,
    `Added by dataapi scaffold (${planned.id}).`,
  );
  const out = path.resolve(options.out ?? 'generated');
  const handlersDir = path.resolve(options.handlersDir ?? 'handlers');
  const handlerFile = handlerPath(handlersDir, planned.id);
  const base: Omit<ScaffoldResult, 'handler'> = {
    id: planned.id,
    spec: spec.shown,
    added: planned.entries.map((e) => ({
      method: e.method,
      path: e.path,
      pointer: joinPointer('paths', e.path, e.method),
    })),
    insertions: edit.insertions,
    text: edit.text,
  };
  const source = () =>
    handlerSource(
      planned.id,
      `${req.method.toUpperCase()} ${req.path}`,
      planned.payloadExample,
      serverImport(handlersDir, out),
    );
  if (options.dryRun) {
    const exists = await access(handlerFile).then(
      () => true,
      () => false,
    );
    return {
      ...base,
      handler: { path: handlerFile, created: false, ...(exists ? {} : { source: await source() }) },
    };
  }
  await replaceSpec(spec, edit.text, base.added);
  const handler = await createHandler(handlerFile, await source());
  if (options.generate === false) return { ...base, handler };
  try {
    const generated = await generate({ spec: spec.file, out });
    return { ...base, handler, generated };
  } catch (err) {
    return { ...base, handler, generateError: err as Error };
  }
}
