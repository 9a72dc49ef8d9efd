/**
 * Which parameter is an operation's page size: decided here, once, and stored in the model
 * (`Operation.paging`), so the mock and the contract probes read one answer instead of guessing.
 */
import { deref, propertiesOf } from '../../model/schema.ts';
import type { JsonSchema, Operation, Paging } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';

const PAGE_SIZE = /^(page_?size|per_?page|limit|size|page_?limit)$/i;

/** An integer query parameter named like a page size, else such a property of a JSON body. */
export function readPaging(
  model: Pick<ServiceModel, 'schemaRoot'>,
  op: Operation,
): Paging | undefined {
  for (const p of op.parameters.query) {
    if (!PAGE_SIZE.test(p.name)) continue;
    const paging = integerPaging(model, 'query', p.name, p.schema);
    if (paging) return paging;
  }
  if (op.body?.kind !== 'json') return undefined;
  for (const [name, schema] of propertiesOf(model, op.body.schema)) {
    if (!PAGE_SIZE.test(name)) continue;
    const paging = integerPaging(model, 'body', name, schema);
    if (paging) return paging;
  }
  return undefined;
}

function integerPaging(
  model: Pick<ServiceModel, 'schemaRoot'>,
  where: Paging['in'],
  name: string,
  schema: JsonSchema,
): Paging | undefined {
  const s = deref(model, schema);
  if (typeof s !== 'object') return undefined;
  const types = Array.isArray(s['type']) ? s['type'] : [s['type']];
  if (!types.includes('integer')) return undefined;
  return {
    in: where,
    name,
    minimum: typeof s['minimum'] === 'number' ? s['minimum'] : 1,
    ...(typeof s['maximum'] === 'number' ? { maximum: s['maximum'] } : {}),
  };
}
