/**
 * The files of a (possibly split) description and where things are in them.
 *
 * swagger-parser reports a bad `$ref` by its target and schema errors by pointers into the
 * dereferenced tree; neither says which file and line to fix. This module checks every `$ref`
 * itself, reporting the file, pointer and line of the `$ref` that fails, and traces a pointer of
 * the dereferenced tree through `$ref`s back to the file and line it came from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSpecText, SpecError, type SpecPlace, type SpecProblem } from './load-text.ts';
import { mergeKeyRepairs, textRefRepair } from './load-lenient-reads.ts';
import type { LoadRepair } from './load-repair.ts';
import { isObject } from '../model/object.ts';
import { joinPointer, PointerError, splitPointer } from '../model/pointer.ts';

interface SpecFile {
  abs: string;
  shown: string;
  raw: unknown;
  locate(pointer: string): { line: number; column: number } | undefined;
  /** Read as its text: not JSON or YAML (a Markdown page, a code sample). */
  asText?: boolean;
}

const toPointer = (tokens: string[]) => joinPointer(...tokens);

function step(node: unknown, token: string): unknown {
  if (Array.isArray(node)) return node[Number(token)];
  if (isObject(node) && Object.hasOwn(node, token)) return node[token];
  return undefined;
}

function getAt(node: unknown, tokens: string[]): unknown {
  for (const t of tokens) {
    node = step(node, t);
    if (node === undefined) return undefined;
  }
  return node;
}

/** Keys whose values are literal data, never Reference Objects. */
const LITERAL_KEYS = new Set(['example', 'enum', 'const']);

/** The files swagger-parser (json-schema-ref-parser) reads as text, not as YAML or JSON. */
export const TEXT_FILE = /\.(txt|htm|html|md|xml|js|min|map|css|scss|less|svg)$/i;

const isRemote = (ref: string) => /^[a-z][a-z0-9+.-]*:/i.test(ref);

export class SpecFiles {
  private readonly files = new Map<string, SpecFile>();
  /** What was read though the format has none (merge keys, `$ref`s to text), where written. */
  readonly lenient: LoadRepair[] = [];

  constructor(
    readonly root: SpecFile,
    private readonly shownOf: (abs: string) => string,
  ) {
    this.files.set(root.abs, root);
  }

  /** Absolute paths of every file the description was read from (the root and its `$ref`s). */
  get paths(): string[] {
    return [...this.files.keys()].sort();
  }

  /** Loads a referenced file; a syntax error in it is a SpecError naming that file. */
  private file(abs: string): SpecFile {
    let f = this.files.get(abs);
    if (!f) {
      const shown = this.shownOf(abs);
      const text = readFileSync(abs, 'utf8');
      // A text file (`description: { $ref: intro.md }`) is its text, as swagger-parser reads it.
      const asText = { raw: text, locate: () => ({ line: 1, column: 1 }) };
      let parsed: { raw: unknown; locate: SpecFile['locate'] };
      if (TEXT_FILE.test(abs)) parsed = asText;
      else if (/\.(ya?ml|json)$/i.test(abs)) parsed = parseSpecText(shown, text);
      else {
        // Another extension (a code sample's `.py`): YAML if it parses, else its text.
        try {
          parsed = parseSpecText(shown, text);
        } catch (err) {
          if (!(err instanceof SpecError)) throw err;
          parsed = asText;
        }
      }
      f = { abs, shown, raw: parsed.raw, locate: parsed.locate };
      // A code sample may parse as YAML: a document that is one text is read as text all the same.
      if (parsed === asText || typeof parsed.raw === 'string') f.asText = true;
      else this.lenient.push(...mergeKeyRepairs(shown, text, false));
      this.files.set(abs, f);
    }
    return f;
  }

  /**
   * A copy of a file as this loader parsed it, for the bundler: it then reads every file as the
   * checks here did (YAML merge keys, which the bundler's own parser keeps as a `<<` key).
   */
  parsed(abs: string): unknown {
    return structuredClone(this.file(abs).raw);
  }

  /** Where a `$ref` leads: the file and the tokens inside it (undefined for remote refs). */
  private target(from: SpecFile, ref: string): { file: string; tokens: string[] } | undefined {
    if (isRemote(ref)) return undefined;
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash);
    const file =
      filePart === '' ? from.abs : path.resolve(path.dirname(from.abs), decodeURI(filePart));
    // The fragment form: percent-decoded (a PointerError when its encoding is broken).
    return { file, tokens: splitPointer(fragment) };
  }

  private problemAt(file: SpecFile, tokens: string[], message: string): SpecProblem {
    const pointer = toPointer(tokens);
    const pos = locateNearest(file, tokens);
    return {
      code: 'spec-ref',
      message,
      pointer,
      line: pos?.line,
      column: pos?.column,
      ...(file !== this.root ? { file: file.shown } : {}),
    };
  }

  /**
   * Checks every local `$ref` that the description reaches, as swagger-parser's dereference does:
   * the whole root file, and in another file what a `$ref` names (a part of a file no `$ref`
   * reaches may name what is not there: unused, it is not read).
   */
  checkRefs(): SpecProblem[] {
    const problems: SpecProblem[] = [];
    const queue: [SpecFile, string[], unknown][] = [[this.root, [], this.root.raw]];
    const walked = new Set<string>();
    const visit = (file: SpecFile, node: unknown, tokens: string[]) => {
      if (Array.isArray(node)) node.forEach((v, i) => visit(file, v, [...tokens, String(i)]));
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        const at = [...tokens, key];
        if (key === '$ref' && typeof value === 'string') {
          const reached = this.reach(file, at, value, problems);
          if (reached) queue.push(reached);
        } else if (!LITERAL_KEYS.has(key) && !(key === 'examples' && Array.isArray(value))) {
          visit(file, value, at); // literal data may hold "$ref" keys that are not references
        }
      }
    };
    while (queue.length > 0) {
      const [file, tokens, node] = queue.shift() as [SpecFile, string[], unknown];
      const key = `${file.abs}#${toPointer(tokens)}`;
      // A node inside one already walked was walked with it.
      const ancestors = [
        file.abs + '#',
        ...tokens.map((_, i) => `${file.abs}#${toPointer(tokens.slice(0, i + 1))}`),
      ];
      if (ancestors.some((a) => walked.has(a))) continue;
      walked.add(key);
      visit(file, node, tokens);
    }
    return problems;
  }

  /** What the `$ref` written at `at` names (a problem pushed when nothing). */
  private reach(
    file: SpecFile,
    at: string[],
    value: string,
    problems: SpecProblem[],
  ): [SpecFile, string[], unknown] | undefined {
    let t: ReturnType<typeof this.target>;
    try {
      t = this.target(file, value);
    } catch (err) {
      if (!(err instanceof PointerError)) throw err;
      problems.push(this.problemAt(file, at, `$ref ${JSON.stringify(value)}: ${err.message}`));
      return undefined;
    }
    if (!t) return undefined;
    let target: SpecFile;
    try {
      target = this.file(t.file);
    } catch (err) {
      if (err instanceof SpecError) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      const message = `cannot read ${this.shownOf(t.file)} (${code}) for $ref ${JSON.stringify(value)}`;
      problems.push(this.problemAt(file, at, message));
      return undefined;
    }
    if (target.asText) {
      const where = this.problemAt(file, at, '');
      this.lenient.push(textRefRepair(value, { ...where, pointer: where.pointer ?? '' }));
    }
    const found = this.resolve(target, t.tokens);
    if (found === undefined) {
      const where = target === file ? 'this file' : target.shown;
      const message = `$ref ${JSON.stringify(value)} points nowhere: ${where} has nothing at #${toPointer(t.tokens)}`;
      problems.push(this.problemAt(file, at, message));
      return undefined;
    }
    return found;
  }

  /**
   * The node at `tokens` of `file`, through a `$ref` met on the way (`.../schema/properties/x`
   * where the schema is a `$ref`), as json-schema-ref-parser resolves a pointer.
   */
  private resolve(file: SpecFile, tokens: string[]): [SpecFile, string[], unknown] | undefined {
    let node: unknown = file.raw;
    let at: string[] = [];
    for (const token of tokens) {
      for (let hops = 0; hops < 50 && isObject(node) && typeof node['$ref'] === 'string'; hops++) {
        if (Object.hasOwn(node, token)) break;
        const t = this.target(file, node['$ref']);
        if (!t) return undefined;
        file = this.file(t.file);
        at = t.tokens;
        node = getAt(file.raw, at);
      }
      node = step(node, token);
      if (node === undefined) return undefined;
      at = [...at, token];
    }
    return [file, at, node];
  }

  /**
   * Maps a pointer into the dereferenced document to the file, pointer and line it was written
   * at, following `$ref`s (the nearest existing node when the pointer names a missing property).
   */
  trace(pointer: string): SpecPlace {
    const { file, tokens } = this.walk(pointer);
    const pos = locateNearest(file, tokens);
    return {
      pointer: toPointer(tokens) || '/',
      line: pos?.line,
      column: pos?.column,
      ...(file !== this.root ? { file: file.shown } : {}),
    };
  }

  /** Whether the author wrote what sits at `pointer` of the bundled document as a `$ref`. */
  isRefAt(pointer: string): boolean {
    const { node } = this.walk(pointer);
    return isObject(node) && typeof node['$ref'] === 'string';
  }

  /**
   * The name the author gave what sits at `pointer` of the bundled document, when it was written
   * as a `$ref` there: the last token of the reference (`NewPet` of `pet.yaml#/NewPet`) or the
   * referenced file's stem.
   */
  refNameAt(pointer: string): string | undefined {
    const { node, file } = this.walk(pointer);
    if (!isObject(node) || typeof node['$ref'] !== 'string') return undefined;
    const t = this.target(file, node['$ref']);
    if (!t) return undefined;
    return t.tokens[t.tokens.length - 1] ?? path.basename(t.file).replace(/\.[^.]*$/, '');
  }

  /**
   * Where `ref`, written in the object at `pointer` of the bundled document, leads in the source
   * files (`<file>#<pointer>`). With no `ref`: where the object at `pointer` itself was written
   * (the target of the `$ref` it was written as, if any). For the references the bundler does not
   * rewrite: a discriminator's mapping values.
   */
  sourceKey(pointer: string, ref?: string): string | undefined {
    let { file, tokens, node } = this.walk(pointer);
    for (let hops = 0; hops < 50 && isObject(node) && typeof node['$ref'] === 'string'; hops++) {
      const t = this.target(file, node['$ref']);
      if (!t) return undefined;
      try {
        file = this.file(t.file);
      } catch {
        return undefined;
      }
      tokens = t.tokens;
      node = getAt(file.raw, tokens);
    }
    if (ref === undefined) return `${file.abs}#${toPointer(tokens)}`;
    const t = this.target(file, ref);
    return t && `${t.file}#${toPointer(t.tokens)}`;
  }

  /** Follows `pointer` from the root through `$ref`s; stops on the node at its last token. */
  private walk(pointer: string): { file: SpecFile; tokens: string[]; node: unknown } {
    let file = this.root;
    let node: unknown = file.raw;
    let tokens: string[] = [];
    const follow = () => {
      for (let hops = 0; hops < 50 && isObject(node) && typeof node['$ref'] === 'string'; hops++) {
        const t = this.target(file, node['$ref']);
        if (!t) return;
        let next: SpecFile;
        try {
          next = this.file(t.file);
        } catch {
          return;
        }
        const target = getAt(next.raw, t.tokens);
        if (target === undefined) return;
        file = next;
        tokens = t.tokens;
        node = target;
      }
    };
    for (const token of splitPointer(pointer)) {
      follow();
      const next = step(node, token);
      if (next === undefined) break;
      node = next;
      tokens = [...tokens, token];
    }
    return { file, tokens, node };
  }
}

function locateNearest(file: Pick<SpecFile, 'locate'>, tokens: string[]) {
  for (let n = tokens.length; n >= 0; n--) {
    const pos = file.locate(toPointer(tokens.slice(0, n)));
    if (pos) return pos;
  }
  return undefined;
}
