/**
 * Form and multipart fields, once gathered, shaped by their schema (what the contract suite and
 * the client write, runtime/shared/form.ts, read back as the same value):
 *
 * - an object gathered from the bracket form whose keys are `''` (`a[b][]=x`) or indices
 *   (`a[b][0][c]=x`) is a list where the schema says one;
 * - a list item that is JSON text (`items={"id":1}`, older writers and other clients) is read as
 *   JSON where the items are objects or lists and never text;
 * - an empty text where the schema admits null is null: form fields have no null, so the writers
 *   send an empty one;
 * - the properties, items and additional properties of every `anyOf`/`oneOf` branch count (Stripe's
 *   `anyOf: [{type: object, ...}, {enum: ['']}]` on most nested fields): a list inside one was
 *   otherwise left an object of `''` keys and refused.
 */
import { deref, propertiesOf, type JsonSchema, type ServiceModel } from 'dataapi/model';
import { branchSchema, complex, typesOf } from './schema-types.ts';

type Bag = Record<string, unknown>;

const INDEX = /^(0|[1-9]\d{0,5})$/;
const MAX_DEPTH = 16;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value shaped by its schema (objects shaped in place; a list is a new array). */
export function shapeFormValue(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  value: unknown,
  depth = 0,
): unknown {
  if (depth > MAX_DEPTH || schema === undefined) return value;
  const types = typesOf(model, schema);
  if (value === '' && types.has('null')) return null;
  const list = isBag(value) && types.has('array') ? asList(value) : value;
  if (Array.isArray(list)) {
    if (!types.has('array')) return list;
    const items = branchSchema(model, schema, 'items');
    const itemTypes = typesOf(model, items);
    const jsonItems = complex(itemTypes) && !itemTypes.has('string');
    return list.map((v) => shapeFormValue(model, items, jsonItems ? json(v) : v, depth + 1));
  }
  if (!isBag(list)) return list;
  const properties = propertiesOf(model, schema, { alternatives: true });
  const extra = branchSchema(model, schema, 'additionalProperties');
  for (const [k, v] of Object.entries(list))
    list[k] = shapeFormValue(model, properties.get(k) ?? extra, v, depth + 1);
  return list;
}

/** `{'': [x, y]}` or `{0: x, 1: y}` as `[x, y]`; undefined for an object of other keys. */
function asList(bag: Bag): unknown[] | undefined {
  const keys = Object.keys(bag);
  if (keys.length === 0 || !keys.every((k) => k === '' || INDEX.test(k))) return undefined;
  const out: unknown[] = [];
  if (Object.hasOwn(bag, '')) {
    const v = bag[''];
    out.push(...(Array.isArray(v) ? v : [v]));
  }
  const indices = keys.filter((k) => k !== '').sort((a, b) => Number(a) - Number(b));
  for (const k of indices) out.push(bag[k]);
  return out;
}

function json(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
