/**
 * Validation against the OpenAPI schema of the document's version, with repairs of what real
 * descriptions get wrong inside a schema: a keyword whose value has the wrong type (`pattern: 0`:
 * corpus api.video) or a property an `xml`, `discriminator` or `externalDocs` object does not have
 * (`xml: { example }`: corpus opensuse.org/obs). The OpenAPI schema refused the whole description
 * for either; now the keyword is dropped, with a `schema-bad-keyword` finding, and validation runs
 * again. A property a plain fixed-field object (the root, info, an operation) does not have is
 * dropped with `spec-unknown-property`. Anything else (or a repair that does not help) is refused
 * as before.
 */
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken, splitPointer } from '../model/pointer.ts';
import {
  inSchema,
  mendMisplacedRef,
  mendOpenApi31,
  type AjvLikeError,
  type Mend,
} from './load-off-spec.ts';
import type { LoadRepair } from './load-repair.ts';
import { mendTolerated } from './load-tolerate.ts';
import { TYPED_KEYWORDS } from './normalise/schema-keywords.ts';

/** Objects inside a schema whose unknown properties are dropped. */
const CLOSED = new Set(['xml', 'discriminator', 'externalDocs']);
/** Keywords of a schema whose value a wrong type makes unusable: normalise's, and annotations. */
const KEYWORDS = new Set([
  ...TYPED_KEYWORDS,
  'title',
  'description',
  'nullable',
  'readOnly',
  'writeOnly',
  'deprecated',
  'xml',
  'externalDocs',
]);
const ROUNDS = 20;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Objects of fixed fields, outside schemas, whose schema alternatives never differ in which
 * properties they allow: an unknown property there (a converter's leftover `source` at the root:
 * corpus googleapis.com/cloudbuild) is dropped. Parameters, responses and the like are left alone:
 * their `oneOf` branches name each other's properties as unknown.
 */
function isPlainFixedObject(tokens: string[]): boolean {
  const [a, b, c, d] = tokens;
  switch (tokens.length) {
    case 0:
      return true; // the root
    case 1:
      return a === 'info' || a === 'components' || a === 'externalDocs';
    case 2:
      return (a === 'info' && (b === 'contact' || b === 'license')) || a === 'tags';
    case 3:
      return a === 'paths' && METHODS.has(c as string); // an operation
    default:
      return a === 'tags' && c === 'externalDocs' && d === undefined && b !== undefined;
  }
}

/** Drops a property OpenAPI does not define from a plain fixed-field object. */
function repairUnknown(document: Obj, e: AjvLikeError, tokens: string[]): LoadRepair | undefined {
  // 3.0's schema closes objects with additionalProperties, 3.1's with unevaluatedProperties.
  const extra = e.params?.['additionalProperty'] ?? e.params?.['unevaluatedProperty'];
  if (typeof extra !== 'string') return undefined;
  if (extra.startsWith('x-') || !isPlainFixedObject(tokens)) return undefined;
  const holder = tokens.reduce<unknown>((n, t) => (isObject(n) ? n[t] : undefined), document);
  if (!isObject(holder) || !Object.hasOwn(holder, extra)) return undefined;
  delete holder[extra];
  const where = tokens.length === 0 ? 'the root object' : `#${e.instancePath}`;
  return {
    code: 'spec-unknown-property',
    pointer: `${e.instancePath ?? ''}/${escapeToken(extra)}`,
    message: `${where} has no property ${JSON.stringify(extra)} in OpenAPI: ignored`,
  };
}

/** Drops what one error names, when it is repairable; the repair made, or undefined. */
function repairOne(document: Obj, e: AjvLikeError): LoadRepair | undefined {
  const pointer = e.instancePath ?? '';
  const tokens = splitPointer(pointer);
  if (!inSchema(tokens)) return repairUnknown(document, e, tokens);
  const last = tokens.at(-1);
  const parent = tokens
    .slice(0, -1)
    .reduce<unknown>((n, t) => (isObject(n) ? n[t] : undefined), document);
  if (e.keyword === 'additionalProperties' && last !== undefined && CLOSED.has(last)) {
    const extra = String(e.params?.['additionalProperty']);
    const holder = isObject(parent) ? parent[last] : undefined;
    if (!isObject(holder) || !(extra in holder)) return undefined;
    delete holder[extra];
    return {
      code: 'schema-bad-keyword',
      pointer: `${pointer}/${escapeToken(extra)}`,
      message: `${last} has no property ${JSON.stringify(extra)}: ignored`,
    };
  }
  if (
    (e.keyword === 'type' || e.keyword === 'minimum') &&
    last !== undefined &&
    KEYWORDS.has(last)
  ) {
    if (!isObject(parent) || !(last in parent)) return undefined;
    const value = parent[last];
    delete parent[last];
    return {
      code: 'schema-bad-keyword',
      pointer,
      message: `${last}: ${JSON.stringify(value)} ${e.message ?? 'is not a valid value'}: ignored`,
    };
  }
  return undefined;
}

/** What mainstream tools read on (load-off-spec.ts), else a repair of this module's own. */
function mendOne(
  document: Obj,
  e: AjvLikeError,
  onRefTarget?: (p: string) => void,
): Mend | undefined {
  const mend =
    mendMisplacedRef(document, e, onRefTarget) ??
    mendOpenApi31(document, e) ??
    mendTolerated(document, e);
  if (mend) return mend;
  const repair = repairOne(document, e);
  return repair && { repair };
}

/**
 * Validates the document (throws the validator's error when it stays invalid), repairing where it
 * can: the document validated (`ensureOwn()`'s, a copy the repairs may change, once one is needed)
 * and the repairs made. `onRefTarget`: told each pointer a misplaced `$ref` named.
 */
export function validateRepairing(
  validate: (document: Obj) => void,
  document: Obj,
  ensureOwn: () => Obj,
  onRefTarget?: (pointer: string) => void,
): { document: Obj; repairs: LoadRepair[] } {
  const repairs: LoadRepair[] = [];
  // Keywords hidden from the check only: back in the document once it has passed.
  const restores: (() => void)[] = [];
  let current = document;
  for (let round = 0; ; round++) {
    try {
      validate(current);
      for (const restore of restores) restore();
      return { document: current, repairs };
    } catch (err) {
      const details = (err as { details?: AjvLikeError[] }).details;
      if (round >= ROUNDS || !Array.isArray(details)) throw err;
      if (round === 0) current = ensureOwn();
      const made = details
        .map((e) => mendOne(current, e, onRefTarget))
        .filter((m) => m !== undefined);
      if (made.length === 0) throw err;
      for (const m of made) {
        repairs.push(m.repair);
        if (m.restore) restores.push(m.restore);
      }
    }
  }
}
