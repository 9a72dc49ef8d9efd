/**
 * Load: read, parse, validate and bundle an OpenAPI 3.0/3.1 description.
 * Every failure is a SpecError naming the file, the JSON pointer and (for YAML and JSON text)
 * the line and column, so a user can go straight to the spot.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { isObject } from '../model/object.ts';
import { joinPointer, splitPointer } from '../model/pointer.ts';
import { hoistDeepSchemaRefs } from './load-hoist.ts';
import { SpecFiles } from './load-refs.ts';
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';

/** Kept for callers that still import it from here; it lives in model/pointer.ts. */
export { splitPointer };

export type OpenApiDocument = { [key: string]: unknown };

export interface SpecProblem {
  message: string;
  /** The file the problem is in, when it is not the root file of the description. */
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
}

/** A description that cannot be used; carries where each problem is. */
export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly problems: SpecProblem[],
    readonly code: string = 'DATAAPI_SPEC_INVALID',
  ) {
    super(formatProblems(file, problems));
    this.name = 'SpecError';
  }
}

function formatProblems(file: string, problems: SpecProblem[]): string {
  const lines = problems.map((p) => {
    const at = p.file ?? file;
    const where = p.line !== undefined ? `${at}:${p.line}:${p.column ?? 1}` : at;
    return `  ${where}${p.pointer !== undefined ? ` at #${p.pointer}` : ''}: ${p.message}`;
  });
  return `Invalid OpenAPI description ${file}\n${lines.join('\n')}`;
}

export interface LoadedSpec {
  file: string;
  /** The bundled document: external references pulled in, internal `$ref`s kept. */
  document: OpenApiDocument;
  /** Line and column of a JSON pointer in the root file, when the parser knows it. */
  locate(pointer: string): { line: number; column: number } | undefined;
  /** Absolute paths of every file read: the root and the files its `$ref`s point into. */
  inputs?: string[];
}

/**
 * Parses YAML or JSON text; `locate` maps a pointer back to its line. JSON text (GitHub's
 * description is 13 MB of it) is parsed by JSON.parse, 30 times faster than the YAML parser; the
 * YAML parser's positions are only built when something is located (a problem to report).
 */
export function parseSpecText(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  const json = parseJson(text);
  if (json === undefined) return parseYamlText(file, text);
  let positions: ReturnType<typeof parseYamlText> | undefined;
  return {
    file,
    raw: json.value,
    locate: (pointer) => (positions ??= parseYamlText(file, text)).locate(pointer),
  };
}

/**
 * JSON.parse's value when the text is a JSON object without repeated keys (JSON.parse keeps the
 * last of them silently, the YAML parser reports them); undefined otherwise, and the YAML parser
 * then reads the text (and reports what is wrong with it).
 */
function parseJson(text: string): { value: unknown } | undefined {
  if (!/^\s*\{/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return hasRepeatedKey(text) ? undefined : { value };
}

/** Whether an object in this (valid) JSON text names a key twice. */
function hasRepeatedKey(text: string): boolean {
  const objects: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      objects.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) objects.push(undefined);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) objects.pop();
    else if (c === 0x2c /* , */) expectKey = objects.at(-1) !== undefined;
    else if (c === 0x22 /* " */) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (expectKey) {
        const keys = objects.at(-1) as Set<string>;
        const key = text.slice(i + 1, j);
        const name = key.includes('\\') ? (JSON.parse(`"${key}"`) as string) : key;
        if (keys.has(name)) return true;
        keys.add(name);
        expectKey = false;
      }
      i = j;
    }
  }
  return false;
}

function parseYamlText(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new SpecError(
      file,
      doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return {
          message: e.message.split('\n')[0] ?? e.message,
          pointer: pointerAt(doc.contents, e.pos[0]),
          line: pos.line,
          column: pos.col,
        };
      }),
      'DATAAPI_SPEC_SYNTAX',
    );
  }
  const locate = (pointer: string) => {
    let node: unknown = doc.contents;
    for (const token of splitPointer(pointer)) {
      if (isMap(node))
        node = node.items.find(
          (pair) => isScalar(pair.key) && String(pair.key.value) === token,
        )?.value;
      else if (isSeq(node)) node = node.items[Number(token)];
      else return undefined;
      if (node === undefined || node === null) return undefined;
    }
    const range = (node as Node | undefined)?.range;
    if (!range) return undefined;
    const pos = lineCounter.linePos(range[0]);
    return { line: pos.line, column: pos.col };
  };
  return { file, locate, raw: doc.toJS({ maxAliasCount: 100 }) };
}

/** The JSON pointer of the deepest node whose text contains `offset` (for syntax errors). */
function pointerAt(root: unknown, offset: number): string {
  const tokens: string[] = [];
  const within = (n: unknown) => {
    const r = (n as Node | null | undefined)?.range;
    return !!r && offset >= r[0] && offset <= r[2];
  };
  let node = root;
  for (let depth = 0; depth < 200; depth++) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) =>
          within(p.value) ||
          (within(p.key) && p.value === null) ||
          (p.key !== null &&
            p.value !== null &&
            offset >= ((p.key as Node).range?.[0] ?? Infinity) &&
            offset <= ((p.value as Node).range?.[2] ?? -1)),
      );
      if (!pair) break;
      tokens.push(isScalar(pair.key) ? String(pair.key.value) : String(pair.key));
      node = pair.value;
    } else if (isSeq(node)) {
      const i = node.items.findIndex(within);
      if (i === -1) break;
      tokens.push(String(i));
      node = node.items[i];
    } else break;
  }
  return joinPointer(...tokens) || '/';
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Reads a description's text; `shown` is the path as messages give it (relative to the cwd). */
export async function readSpecText(
  specPath: string,
): Promise<{ file: string; shown: string; text: string }> {
  const file = path.resolve(specPath);
  const shown = path.relative(process.cwd(), file) || file;
  try {
    return { file, shown, text: await readFile(file, 'utf8') };
  } catch (err) {
    throw new SpecError(
      shown,
      [{ message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})` }],
      'DATAAPI_SPEC_UNREADABLE',
    );
  }
}

/** Loads, validates and bundles a description. Throws SpecError; never returns a bad document. */
export async function loadSpec(specPath: string): Promise<LoadedSpec> {
  const { file, shown, text } = await readSpecText(specPath);
  const parsed = parseSpecText(shown, text);
  const raw = parsed.raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SpecError(shown, [{ message: 'the document is not an object', line: 1, column: 1 }]);
  }
  const version = (raw as OpenApiDocument)['openapi'];
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    const pos = parsed.locate('/openapi');
    throw new SpecError(shown, [
      {
        message: `unsupported or missing "openapi" version ${JSON.stringify(version ?? null)}: dataapi reads OpenAPI 3.0.x and 3.1.x`,
        pointer: '/openapi',
        line: pos?.line ?? 1,
        column: pos?.column ?? 1,
      },
    ]);
  }
  const files = new SpecFiles(
    { abs: file, shown, raw, locate: parsed.locate },
    (abs) => path.relative(process.cwd(), abs) || abs,
  );
  // Our own pass first: it names the file, pointer and line of each `$ref` that points nowhere.
  const refProblems = files.checkRefs();
  if (refProblems.length > 0) throw new SpecError(shown, refProblems, 'DATAAPI_SPEC_REF');
  // Bundle first, then validate the bundle: swagger-parser's validate() on a split description
  // leaves a whole chain of external `$ref`s unresolved when one schema is recursive, and then
  // rejects the valid path items that still hold a `$ref`.
  let document: OpenApiDocument;
  try {
    if (files.paths.length === 1) {
      // One file, internal `$ref`s only (checkRefs read every file a `$ref` reaches): the bundle
      // would be the document itself, so the bundler's crawl is skipped.
      document = structuredClone(raw) as OpenApiDocument;
    } else {
      document = (await SwaggerParser.bundle(
        file,
        structuredClone(raw) as never,
      )) as unknown as OpenApiDocument;
      hoistDeepSchemaRefs(document, (pointer) => files.refNameAt(pointer));
    }
    // validate() dereferences in place, so it gets its own copy.
    await SwaggerParser.validate(withoutValidatorFalsePositives(document) as never);
  } catch (err) {
    throw toSpecError(shown, files, err);
  }
  return { file: shown, document, locate: parsed.locate, inputs: files.paths };
}

/**
 * A copy of the document for swagger-parser's validate(), without what its bundled OpenAPI 3.1
 * schema wrongly rejects: a server variable's `description` (the schema misspells it
 * `descriptions`), valid in every 3.x version.
 */
function withoutValidatorFalsePositives(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  const fixServers = (holder: unknown) => {
    if (!isObject(holder) || !Array.isArray(holder['servers'])) return;
    for (const server of holder['servers']) {
      if (!isObject(server) || !isObject(server['variables'])) continue;
      for (const v of Object.values(server['variables']))
        if (isObject(v) && typeof v['description'] === 'string') delete v['description'];
    }
  };
  fixServers(copy);
  for (const item of Object.values(isObject(copy['paths']) ? copy['paths'] : {})) {
    fixServers(item);
    if (isObject(item)) for (const op of Object.values(item)) fixServers(op);
  }
  return copy;
}

function toSpecError(file: string, files: SpecFiles, err: unknown): SpecError {
  const e = err as { message?: string; details?: AjvLikeError[]; path?: string[]; source?: string };
  if (Array.isArray(e.details) && e.details.length > 0) {
    // The deepest pointers name the real culprit; the oneOf/else noise above them is dropped.
    const details = [...e.details].sort(
      (a, b) => (b.instancePath ?? '').length - (a.instancePath ?? '').length,
    );
    const deepest = details[0]?.instancePath ?? '';
    const seen = new Set<string>();
    const problems: SpecProblem[] = [];
    for (const d of details) {
      const pointer = d.instancePath ?? '';
      if (!pointer.startsWith(deepest.split('/').slice(0, -1).join('/'))) continue;
      const message = describeAjvError(d);
      const key = pointer + message;
      if (seen.has(key) || problems.length >= 5) continue;
      seen.add(key);
      // Pointers are into the dereferenced tree: trace them back to the file and line written.
      problems.push({ ...files.trace(pointer), message });
    }
    return new SpecError(file, problems);
  }
  // Semantic errors (duplicate operationIds, missing path parameters) and anything else.
  const message = (e.message ?? String(err)).split('\n')[0] ?? 'invalid description';
  const pointerMatch = /#(\/[^\s"']*)/.exec(e.message ?? '');
  const pointer = e.path ? joinPointer(...e.path) || '/' : pointerMatch?.[1];
  return new SpecError(file, [
    pointer !== undefined ? { ...files.trace(pointer), message } : { message },
  ]);
}

function describeAjvError(d: AjvLikeError): string {
  if (d.keyword === 'enum' && Array.isArray(d.params?.['allowedValues'])) {
    return `${d.message}: ${(d.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (d.keyword === 'additionalProperties' && d.params?.['additionalProperty'] !== undefined) {
    return `unexpected property ${JSON.stringify(d.params['additionalProperty'])}`;
  }
  return d.message ?? 'invalid';
}
