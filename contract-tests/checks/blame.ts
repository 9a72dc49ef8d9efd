/**
 * Whom a response body that fails its declared schema condemns: the target (a failure), or the
 * description (a warning at its JSON pointer) when the schema itself is at fault.
 */
import type { JsonSchema, Operation } from 'dataapi/model';
import { draw } from 'dataapi/runtime/sampler';
import { validatorFor, type ErrorObject } from 'dataapi/runtime/shared';
import type { Probe } from '../probes.ts';
import { sharedRouteNote, siblingsOf } from '../shared-route.ts';
import { pointerOf } from '../warnings.ts';
import {
  declaredResponse,
  descriptionWarning,
  statusOf,
  type CheckContext,
  type Violation,
} from './judge.ts';

const satisfiableCache = new WeakMap<object, boolean>();

/** Whether the sampler finds a value the schema accepts (cached per schema object). */
function satisfiable(
  model: Parameters<typeof draw>[0],
  schema: Parameters<typeof draw>[1],
): boolean {
  if (typeof schema !== 'object' || schema === null) return schema !== false;
  let known = satisfiableCache.get(schema);
  if (known === undefined) satisfiableCache.set(schema, (known = draw(model, schema).valid));
  return known;
}

/** A sibling on the same route whose declared response for this status the body fits. */
function siblingAnswer(ctx: CheckContext, status: number, body: unknown): Operation | undefined {
  const v = validatorFor(ctx.model);
  return siblingsOf(ctx.model, ctx.op).find((o) => {
    const r = declaredResponse(o, status);
    return r?.schema !== undefined && v.compile(r.schema)(body) === true;
  });
}

/**
 * Who a body that fails its schema condemns. The description, when: the body fits several
 * options of a `oneOf` and nothing else is wrong (the options overlap); it fits an operation
 * sharing the route (the description does not say how a target tells them apart); the schema
 * admits no value at all (contradictory parts). Else the target.
 */
export function blame(
  ctx: CheckContext,
  p: Probe,
  r: { status: string; schema?: unknown },
  errors: ErrorObject[],
  v: Violation,
): Violation {
  const at = pointerOf(ctx.op.pointer, 'responses', r.status);
  const overlaps = overlapsOnly(errors);
  if (overlaps)
    return descriptionWarning(
      v,
      'ambiguous-one-of',
      at,
      `the body fits more than one option of the oneOf at ${overlaps.join(', ')} (options ${overlaps.passing}): the description's options overlap`,
    );
  const sibling = siblingAnswer(ctx, statusOf(p), p.exchange.json);
  if (sibling)
    return descriptionWarning(
      v,
      'operation-shared-route',
      ctx.op.pointer,
      sharedRouteNote([sibling], ctx.op),
    );
  if (satisfiable(ctx.model, r.schema as JsonSchema)) return v;
  return descriptionWarning(
    { ...v, expected: `${v.expected}, but the schema admits no value the sampler can find` },
    'unsatisfiable-schema',
    at,
  );
}

const COMBINATORS = ['oneOf', 'anyOf', 'allOf', 'if', 'then', 'else', 'not'];

/**
 * The instance paths where a value fits several `oneOf` options, when they explain every error
 * (the failing options' own errors below them, combinators above them fail with them).
 */
function overlapsOnly(errors: ErrorObject[]): (string[] & { passing: string }) | undefined {
  const multi = errors.filter(
    (e) =>
      e.keyword === 'oneOf' &&
      Array.isArray((e.params as { passingSchemas?: unknown }).passingSchemas),
  );
  if (multi.length === 0) return undefined;
  const paths = [...new Set(multi.map((e) => e.instancePath || '/'))];
  const explained = (e: ErrorObject) =>
    multi.some(
      (m) =>
        e.instancePath === m.instancePath ||
        e.instancePath.startsWith(`${m.instancePath}/`) ||
        (m.instancePath.startsWith(`${e.instancePath}/`) && COMBINATORS.includes(e.keyword)),
    );
  if (!errors.every(explained)) return undefined;
  const passing = (multi[0]!.params as { passingSchemas: number[] }).passingSchemas.join(' and ');
  return Object.assign(paths, { passing });
}
