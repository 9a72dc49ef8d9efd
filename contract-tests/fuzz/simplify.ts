/**
 * A last pass after fast-check's shrinking, in a few requests: each optional field left out, each
 * string's characters made plain (`a`) where that keeps the failure, half by half. fast-check
 * shrinks lengths and numbers quickly, but a string's characters one at a time, each costing a
 * request: against a paced target this pass gets to the same minimal request far sooner.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import type { RequestSpec } from '../requests.ts';
import { fieldsOf, valueOf, withValue, type Field } from './fields.ts';
import { schemaErrors, unsendable } from './generate.ts';

/** Resends a candidate; true when it still fails the same way. */
export type Retry = (spec: RequestSpec) => Promise<boolean>;

export async function simplify(
  model: ServiceModel,
  op: Operation,
  spec: RequestSpec,
  retry: Retry,
  /** A field the request must keep as it is (an invalid request's violation). */
  keep: string | undefined,
  budget: number,
): Promise<{ spec: RequestSpec; spent: number }> {
  let best = spec;
  let spent = 0;
  const attempt = async (f: Field, value: unknown): Promise<boolean> => {
    if (spent >= budget) return false;
    if (
      value !== undefined &&
      (unsendable(f.loc, value) || schemaErrors(model, f.schema, value).length > 0)
    )
      return false;
    spent++;
    const candidate = withValue(best, f, value);
    if (!(await retry(candidate))) return false;
    best = candidate;
    return true;
  };
  for (const f of fieldsOf(model, op)) {
    if (f.untouched || f.key === keep) continue;
    const value = valueOf(best, f);
    if (value === undefined) continue;
    if (!f.required && (await attempt(f, undefined))) continue;
    if (typeof value === 'string') await plainer(f, [...value], attempt);
  }
  return { spec: best, spent };
}

/** Characters to `a`: all at once, else each half that can be (recursively, a few levels). */
async function plainer(
  f: Field,
  chars: string[],
  attempt: (f: Field, value: unknown) => Promise<boolean>,
): Promise<void> {
  let current = chars;
  const plain = (from: number, to: number) =>
    current.map((c, i) => (i >= from && i < to ? 'a' : c));
  const visit = async (from: number, to: number, depth: number): Promise<void> => {
    if (to <= from || current.slice(from, to).every((c) => c === 'a')) return;
    const next = plain(from, to);
    if (await attempt(f, next.join(''))) {
      current = next;
      return;
    }
    if (depth >= 4 || to - from < 2) return;
    const mid = Math.floor((from + to) / 2);
    await visit(from, mid, depth + 1);
    await visit(mid, to, depth + 1);
  };
  await visit(0, current.length, 0);
}
