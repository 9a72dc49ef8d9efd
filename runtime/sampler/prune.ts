/**
 * The last resort of a draw: a value that fails its schema is pruned until it passes, where it
 * can. The deepest error's place is removed (an optional property, an array item), or the place
 * above it when that removal is refused, as long as each removal leaves fewer errors. A `oneOf`
 * whose options overlap (Box's event `source`: one option takes any object) admits no value at
 * all: left out where it is optional, the rest of the value stays valid and useful.
 */
import type { ValidateFunction } from '../shared/index.ts';

type Container = Record<string, unknown> | unknown[];

const MAX_REMOVALS = 64;

function errorCount(validate: ValidateFunction, value: unknown): number {
  return validate(value) ? 0 : (validate.errors?.length ?? 1);
}

/** A copy of `value` without the node at `path` (JSON pointer tokens), or undefined. */
function without(value: unknown, path: string[]): unknown {
  if (path.length === 0) return undefined;
  const copy = structuredClone(value);
  let node: unknown = copy;
  for (const token of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  if (typeof node !== 'object' || node === null) return undefined;
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) (node as Container as unknown[]).splice(Number(last), 1);
  else if (Object.hasOwn(node, last)) delete (node as Record<string, unknown>)[last];
  else return undefined;
  return copy;
}

const tokensOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

/** The value pruned until `validate` accepts it, or undefined when no removal gets there. */
export function prune(validate: ValidateFunction, value: unknown): unknown {
  let current = value;
  let errors = errorCount(validate, current);
  for (let i = 0; i < MAX_REMOVALS && errors > 0; i++) {
    const deepest = [...(validate.errors ?? [])]
      .map((e) => tokensOf(e.instancePath))
      .sort((a, b) => b.length - a.length)[0];
    let next: { value: unknown; errors: number } | undefined;
    for (let depth = deepest?.length ?? 0; depth > 0 && !next; depth--) {
      const candidate = without(current, deepest!.slice(0, depth));
      if (candidate === undefined) continue;
      const n = errorCount(validate, candidate);
      if (n < errors) next = { value: candidate, errors: n };
    }
    if (!next) return undefined;
    current = next.value;
    errors = next.errors;
    if (errors > 0) validate(current); // errorCount left the candidate's errors; refresh them
  }
  return errors === 0 ? current : undefined;
}
