/**
 * Constructs mainstream tools read though the format has none, found where the author wrote them:
 * YAML 1.1 merge keys (`<<: *anchor`; OpenAPI's YAML is 1.2, which has none) and a `$ref` to a file
 * that is not JSON or YAML (a Markdown page, a code sample). The loader reads both as
 * swagger-parser does (the keys merged in; the file as its text) and says so, with the file and
 * line: a warning, never a refusal.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import { joinPointer } from '../model/pointer.ts';
import type { LoadRepair } from './load-repair.ts';

/** A cheap test before a parse: a line whose key is `<<`. */
const MAY_MERGE = /^[ \t]*(?:-[ \t]+)?<<[ \t]*:/m;

/** The merge keys of a YAML text, each where it is written (none for JSON or without any). */
export function mergeKeyRepairs(shown: string, text: string, root: boolean): LoadRepair[] {
  if (!MAY_MERGE.test(text)) return [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, merge: true });
  const repairs: LoadRepair[] = [];
  visit(doc, {
    Pair(_, pair, path) {
      const key = pair.key;
      if (!isScalar(key) || typeof key.value !== 'symbol' || !key.range) return;
      const pos = lineCounter.linePos(key.range[0]);
      const pointer = pointerOf(path);
      repairs.push({
        code: 'yaml-merge-key',
        pointer,
        message: `a YAML merge key (<<) at ${pointer || '/'}: YAML 1.2, which OpenAPI descriptions are written in, has none; read as YAML 1.1 reads it, the anchored keys merged in`,
        ...(root ? {} : { file: shown }),
        line: pos.line,
        column: pos.col,
      });
    },
  });
  return repairs;
}

/** The pointer of the map a pair is in, from the visitor's path of ancestors. */
function pointerOf(path: readonly unknown[]): string {
  const tokens: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const node = path[i];
    const next = path[i + 1];
    if (isPair(node) && isScalar(node.key)) tokens.push(String(node.key.value));
    else if (isSeq(node) && next !== undefined)
      tokens.push(String(node.items.indexOf(next as never)));
    else if (isMap(node)) continue;
  }
  return joinPointer(...tokens);
}

/** A `$ref` that named a file read as text, at the `$ref`. */
export function textRefRepair(
  ref: string,
  at: { pointer: string; file?: string; line?: number; column?: number },
): LoadRepair {
  return {
    code: 'ref-to-text',
    pointer: at.pointer,
    message: `$ref ${JSON.stringify(ref)} names a file that is not JSON or YAML: read as its text (as swagger-parser reads it); a Reference Object names an object of the description`,
    ...(at.file !== undefined ? { file: at.file } : {}),
    ...(at.line !== undefined ? { line: at.line } : {}),
    ...(at.column !== undefined ? { column: at.column } : {}),
  };
}
