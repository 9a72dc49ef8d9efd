/**
 * Reading and parsing a description's text, and the error every load step throws: SpecError
 * names the file, the JSON pointer and (for YAML and JSON text) the line and column.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from 'yaml';
import { fetchSpec, isUrl, RemoteSpecError, shownUrl } from './load-remote.ts';
import { joinPointer, splitPointer } from '../model/pointer.ts';
import type { DiagnosticCode, LoadErrorCode } from '../model/diagnostics.ts';
import type { LoadRepair } from './load-repair.ts';
import { jsonLocator } from './load-json-locate.ts';
import { KEEP_FROM_CHARS, keepYamlValue, keptYamlValue } from './load-yaml-kept.ts';

export type OpenApiDocument = { [key: string]: unknown };

export interface LoadedSpec {
  file: string;
  /** The bundled document: external references pulled in, internal `$ref`s kept. */
  document: OpenApiDocument;
  /** Line and column of a JSON pointer in the root file, when the parser knows it. */
  locate(pointer: string): { line: number; column: number } | undefined;
  /** Absolute paths of every file read: the root and the files its `$ref`s point into. */
  inputs?: string[];
  /** The root file's text, when the document is exactly that text as JSON.parse reads it. */
  jsonText?: string;
  /** What the loader mended so the description could be read (reported as findings). */
  repairs?: LoadRepair[];
  /**
   * The file, pointer and line a pointer of `document` was written at, when that is not simply
   * `locate` of the root file: a split description, or objects the loader moved.
   */
  trace?(pointer: string): SpecPlace;
}

/** Where something is written: the file (when not the root file), the pointer and the line. */
export interface SpecPlace {
  /** The file, when it is not the root file of the description. */
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
}

/**
 * One problem of a description, with the catalogue code it is (`spec-syntax`, `spec-extension`,
 * `deprecation-sunset`...): whoever reports it (the loader's refusal, lint's finding) reads the
 * code from here, never from where the problem is.
 */
export interface SpecProblem extends SpecPlace {
  code: DiagnosticCode;
  message: string;
}

/** A description that cannot be used; carries where each problem is. */
export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly problems: SpecProblem[],
    /** The catalogue's code (docs/diagnostics.md). */
    readonly diagnostic: LoadErrorCode = 'spec-invalid',
  ) {
    super(formatProblems(file, problems));
    this.name = 'SpecError';
  }

  /** The code as scripts match it: `spec-syntax` is DATAAPI_SPEC_SYNTAX. */
  get code(): string {
    return `DATAAPI_${this.diagnostic.toUpperCase().replace(/-/g, '_')}`;
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

/**
 * Parses YAML or JSON text; `locate` maps a pointer back to its line. JSON text (GitHub's
 * description is 13 MB of it) is parsed by JSON.parse, 30 times faster than the YAML parser, and
 * located by a scan of only the containers on a pointer's way (load-json-locate.ts).
 */
export function parseSpecText(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  const json = parseJson(text);
  if (json === undefined) return parseYamlKept(file, text);
  return { file, raw: json.value, jsonText: text, locate: jsonLocator(text) };
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
  return hasRepeatedKey(text, value) ? undefined : { value };
}

/**
 * Whether an object in this (valid) JSON text names a key twice: JSON.parse keeps one property per
 * name, so the parsed value then has fewer properties than the text has keys. (A string followed
 * by `:` is a key in valid JSON.) Counting allocates nothing, which matters on 13 MB of text.
 */
function hasRepeatedKey(text: string, value: unknown): boolean {
  let keys = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
    let j = text.indexOf('"', i + 1);
    while (isEscaped(text, j)) j = text.indexOf('"', j + 1);
    let k = j + 1;
    while (isSpace(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === 0x3a /* : */) keys++;
    i = j;
  }
  return keys !== propertyCount(value);
}

/** Whether the quote at `at` is escaped (an odd run of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 0x5c) n++;
  return n % 2 === 1;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Properties in all the objects of a parsed JSON value (a stack, not recursion: any depth). */
function propertyCount(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key in node) {
      n++;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return n;
}

/** A large YAML text's value as an earlier load kept it (load-yaml-kept.ts), else parsed. */
function parseYamlKept(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  if (text.length < KEEP_FROM_CHARS) return parseYamlText(file, text);
  const raw = keptYamlValue(text);
  if (raw === undefined) {
    const parsed = parseYamlText(file, text);
    keepYamlValue(text, parsed.raw);
    return parsed;
  }
  // The text parsed without errors before; its positions only when something is located.
  let positions: ReturnType<typeof parseYamlText> | undefined;
  return {
    file,
    raw,
    locate: (pointer) => (positions ??= parseYamlText(file, text)).locate(pointer),
  };
}

/** YAML (or JSON) text parsed by the YAML parser, with its positions; exported for tests. */
export function parseYamlText(
  file: string,
  text: string,
): Omit<LoadedSpec, 'document'> & { raw: unknown } {
  const lineCounter = new LineCounter();
  // `merge`: YAML 1.1's `<<: *anchor` merge keys, which swagger-parser (js-yaml) reads too.
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    merge: true,
  });
  if (doc.errors.length > 0) {
    throw new SpecError(
      file,
      doc.errors.map((e) => {
        const pos = lineCounter.linePos(e.pos[0]);
        return {
          code: 'spec-syntax' as const,
          message: e.message.split('\n')[0] ?? e.message,
          pointer: pointerAt(doc.contents, e.pos[0]),
          line: pos.line,
          column: pos.col,
        };
      }),
      'spec-syntax',
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

/** A file's name in messages: relative to the cwd. */
const relativeName = (abs: string) => path.relative(process.cwd(), abs) || abs;

/**
 * Reads a description's text; `shown` is the path as messages give it (relative to the cwd, or
 * the URL), `showFile` names the files its `$ref`s lead to the same way.
 */
export async function readSpecText(
  specPath: string,
): Promise<{ file: string; shown: string; text: string; showFile: (abs: string) => string }> {
  if (isUrl(specPath)) {
    const shown = shownUrl(specPath);
    try {
      return { ...(await fetchSpec(specPath)), shown };
    } catch (err) {
      if (!(err instanceof RemoteSpecError)) throw err;
      throw new SpecError(
        shown,
        [{ code: 'spec-unreadable', message: err.message }],
        'spec-unreadable',
      );
    }
  }
  const file = path.resolve(specPath);
  const shown = relativeName(file);
  try {
    return { file, shown, text: await readFile(file, 'utf8'), showFile: relativeName };
  } catch (err) {
    throw new SpecError(
      shown,
      [
        {
          code: 'spec-unreadable',
          message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
        },
      ],
      'spec-unreadable',
    );
  }
}
