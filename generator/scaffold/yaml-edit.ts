/**
 * Adds operations to a YAML description without touching the rest of the file. The yaml
 * package's Document API locates the maps to extend (`paths`, or an existing path item) and
 * renders the new entries; the rendered entries are then spliced into the original text at the
 * end of those maps, so comments, order, quoting and line folding elsewhere stay byte for byte
 * (re-serialising the whole document would reformat it). The result is parsed again and must
 * equal the original plus exactly the new entries.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  Document,
  isMap,
  isScalar,
  parseDocument,
  visit,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { isObject, type Obj } from '../../model/object.ts';
import type { PlannedEntry } from './plan.ts';
import { ScaffoldError } from './request.ts';

export interface Insertion {
  /** Offset in the original text. */
  offset: number;
  text: string;
}

export interface YamlEdit {
  text: string;
  insertions: Insertion[];
}

const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

function blockMap(node: unknown, what: string): YAMLMap {
  if (!isMap(node) || node.flow || node.items.length === 0 || !node.range) {
    throw new ScaffoldError(
      `${what} is not a non-empty block mapping; dataapi scaffold extends block YAML only (add the operation by hand)`,
    );
  }
  return node;
}

/** Renders entries as block YAML at `indent` spaces, in the spec's style. */
export function renderEntries(entries: Obj, indent: number, spaced: boolean): string {
  const chunks = Object.entries(entries).map(([key, value]) => {
    const doc = new Document({ [key]: value });
    // Long prose reads better folded, as the rest of the description writes it.
    visit(doc, {
      Scalar(_, scalar) {
        // YAML 1.1 readers (js-yaml, used by many OpenAPI tools) turn a bare timestamp into a date.
        if (typeof scalar.value === 'string' && /^\d{4}-\d\d-\d\d/.test(scalar.value))
          scalar.type = 'QUOTE_SINGLE';
      },
      Pair(_, pair) {
        if (
          isScalar(pair.key) &&
          (pair.key.value === 'description' || pair.key.value === 'summary') &&
          isScalar(pair.value) &&
          typeof pair.value.value === 'string' &&
          pair.value.value.length > 80
        ) {
          pair.value.type = 'BLOCK_FOLDED';
        }
      },
    });
    return doc
      .toString({ indent: 2, lineWidth: 96, minContentWidth: 40, singleQuote: true })
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => (line === '' ? line : ' '.repeat(indent) + line))
      .join('\n');
  });
  return chunks.join(spaced ? '\n\n' : '\n') + '\n';
}

/** Where a new entry goes at the end of a block map, and in which style. */
function endOf(text: string, map: YAMLMap): { offset: number; indent: number; spaced: boolean } {
  const items = map.items as Pair<Node, Node | null>[];
  const first = items[0]!.key.range![0];
  const indent = first - lineStart(text, first);
  const last = items[items.length - 1]!;
  const lastKey = last.key.range![0];
  // Spaced when the last entry is preceded by a blank line (ignoring its comment lines).
  let probe = lineStart(text, lastKey);
  while (probe > 0) {
    const prev = lineStart(text, probe - 1);
    const line = text.slice(prev, probe - 1);
    if (/^\s*#/.test(line)) probe = prev;
    else break;
  }
  const spaced =
    items.length > 1 &&
    probe > 0 &&
    text.slice(lineStart(text, probe - 1), probe - 1).trim() === '';
  // Walk back over blank lines and over comments that belong to an outer level (a section
  // header before the next top-level key), to the last line of the map's own content.
  let end = last.value?.range?.[2] ?? last.key.range![2];
  let cursor = end;
  for (;;) {
    const start = lineStart(text, cursor > 0 && text[cursor - 1] === '\n' ? cursor - 1 : cursor);
    const line = text.slice(
      start,
      text.indexOf('\n', start) === -1 ? text.length : text.indexOf('\n', start),
    );
    const lineIndent = line.length - line.trimStart().length;
    if (start <= lastKey) break;
    if (line.trim() === '' || (line.trimStart().startsWith('#') && lineIndent < indent)) {
      cursor = start;
      continue;
    }
    break;
  }
  end = cursor;
  const nl = text.indexOf('\n', Math.max(end - 1, lastKey));
  const offset = end > 0 && text[end - 1] === '\n' ? end : nl === -1 ? text.length : nl + 1;
  return { offset, indent, spaced };
}

/** Adds each planned operation to the text; refuses if any already exists. */
export function addOperations(text: string, entries: PlannedEntry[], comment?: string): YamlEdit {
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new ScaffoldError(`the description is not valid YAML: ${doc.errors[0]!.message}`);
  const paths = blockMap(doc.get('paths', true), 'paths');
  const insertions: Insertion[] = [];
  const newItems: Obj = {};
  for (const e of entries) {
    const pair = (paths.items as Pair[]).find((p) => keyOf(p) === e.path);
    if (!pair) {
      newItems[e.path] = {
        ...(isObject(newItems[e.path]) ? (newItems[e.path] as Obj) : {}),
        [e.method]: e.operation,
      };
      continue;
    }
    const item = blockMap(pair.value, `the path item ${e.path}`);
    if ((item.items as Pair[]).some((p) => keyOf(p) === e.method))
      throw new ScaffoldError(`${e.method.toUpperCase()} ${e.path} already exists`);
    const at = endOf(text, item);
    insertions.push({
      offset: at.offset,
      text: renderEntries({ [e.method]: e.operation }, at.indent, false),
    });
  }
  if (Object.keys(newItems).length > 0) {
    const at = endOf(text, paths);
    const rendered = renderEntries(newItems, at.indent, at.spaced);
    const note = comment !== undefined ? `${' '.repeat(at.indent)}# ${comment}\n` : '';
    insertions.push({ offset: at.offset, text: (at.spaced ? '\n' : '') + note + rendered });
  }
  insertions.sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const ins of insertions) out = out.slice(0, ins.offset) + ins.text + out.slice(ins.offset);
  insertions.reverse();

  // The safety net: the new text means the old document plus exactly the new operations.
  const after = parseDocument(out);
  const expected = structuredClone(doc.toJS()) as Obj;
  const expectedPaths = expected['paths'] as Obj;
  for (const e of entries) {
    const item = isObject(expectedPaths[e.path]) ? (expectedPaths[e.path] as Obj) : {};
    expectedPaths[e.path] = { ...item, [e.method]: e.operation };
  }
  if (after.errors.length > 0 || !isDeepStrictEqual(after.toJS(), expected)) {
    throw new Error(
      'internal error: the YAML edit would change more than the new operation; nothing was written. Please report this with your description.',
    );
  }
  return { text: out, insertions };
}
