/**
 * Load: read, parse, validate and bundle an OpenAPI 3.0/3.1 description.
 * Every failure is a SpecError naming the file, the JSON pointer and (for YAML and JSON text)
 * the line and column, so a user can go straight to the spot.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';

export type OpenApiDocument = { [key: string]: unknown };

export interface SpecProblem {
  message: string;
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
    const where = p.line !== undefined ? `${file}:${p.line}:${p.column ?? 1}` : file;
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
}

/** Parses YAML or JSON text, keeping positions so pointers can be mapped back to lines. */
export function parseSpecText(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new SpecError(
      file,
      doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        return {
          message: e.message.split('\n')[0] ?? e.message,
          line: pos?.line,
          column: pos?.col,
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

export function splitPointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^#?\//, '')
    .split('/')
    .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Locates the closest enclosing node for a pointer (a missing property points at its parent). */
function locateNearest(loaded: Pick<LoadedSpec, 'locate'>, pointer: string) {
  const tokens = splitPointer(pointer);
  for (let n = tokens.length; n >= 0; n--) {
    const p =
      '/' +
      tokens
        .slice(0, n)
        .map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
    const pos = loaded.locate(n === 0 ? '' : p);
    if (pos) return pos;
  }
  return undefined;
}

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Loads, validates and bundles a description. Throws SpecError; never returns a bad document. */
export async function loadSpec(specPath: string): Promise<LoadedSpec> {
  const file = path.resolve(specPath);
  const shown = path.relative(process.cwd(), file) || file;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new SpecError(
      shown,
      [{ message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})` }],
      'DATAAPI_SPEC_UNREADABLE',
    );
  }
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
  try {
    // validate() dereferences in place, so it gets its own copy.
    await SwaggerParser.validate(file, structuredClone(raw) as never);
  } catch (err) {
    throw toSpecError(shown, parsed, err);
  }
  let document: OpenApiDocument;
  try {
    document = (await SwaggerParser.bundle(
      file,
      structuredClone(raw) as never,
    )) as unknown as OpenApiDocument;
  } catch (err) {
    throw toSpecError(shown, parsed, err);
  }
  return { file: shown, document, locate: parsed.locate };
}

function toSpecError(file: string, parsed: Pick<LoadedSpec, 'locate'>, err: unknown): SpecError {
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
      const pos = locateNearest(parsed, pointer);
      problems.push({ message, pointer: pointer || '/', line: pos?.line, column: pos?.column });
    }
    return new SpecError(file, problems);
  }
  // $ref resolution errors and semantic errors (duplicate operationIds, missing path params).
  const message = (e.message ?? String(err)).split('\n')[0] ?? 'invalid description';
  const pointerMatch = /#(\/[^\s"']*)/.exec(e.message ?? '');
  const pointer = e.path
    ? '/' + e.path.map((t) => String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')
    : pointerMatch?.[1];
  const pos = pointer ? locateNearest(parsed, pointer) : undefined;
  return new SpecError(file, [{ message, pointer, line: pos?.line, column: pos?.column }]);
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
