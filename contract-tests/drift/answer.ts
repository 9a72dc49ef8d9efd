/**
 * What of an answer `--compare-mock` compares: status, business code, envelope, media type and
 * the set of payload fields present with a schema-valid value. Values are never compared: a
 * deployment's data is its own; its shape is the contract the mock stands in for.
 */
import { deref, propertiesOf, type Operation, type ServiceModel } from 'dataapi/model';
import { readEnvelope, validatorFor } from 'dataapi/runtime/shared';
import type { Exchange } from '../http.ts';

export interface AnswerShape {
  status: string;
  businessCode: string;
  envelope: string;
  contentType: string;
  /** Payload fields present whose value is valid against the field's schema, sorted. */
  fields: string;
}

export const ASPECTS = ['status', 'businessCode', 'envelope', 'contentType', 'fields'] as const;
export type Aspect = (typeof ASPECTS)[number];

function envelopeOf(op: Operation, e: Exchange): string {
  if (!e.isJson) return 'no JSON body';
  if (!op.envelope) return 'plain JSON';
  const r = readEnvelope(op, e.json);
  if (r.foreignKeys.length > 0) return `other spelling (${r.foreignKeys.join(', ')})`;
  if (!r.status) return `no ${op.envelope.statusKey}`;
  return r.wellFormed
    ? op.envelope.spelling
    : `${op.envelope.spelling} without ${op.envelope.payloadKey}`;
}

function validFields(model: ServiceModel, op: Operation, e: Exchange): string[] {
  if (!e.isJson) return [];
  const payload = op.envelope ? readEnvelope(op, e.json).payload : e.json;
  let schema = deref(model, op.payloadSchema ?? op.success?.schema);
  let items: unknown[] = [payload];
  if (Array.isArray(payload)) {
    items = payload;
    schema = deref(model, (schema as { items?: never } | undefined)?.items);
  }
  const props = propertiesOf(model, schema);
  const v = validatorFor(model);
  const present = new Set<string>();
  for (const item of items) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
    for (const [k, value] of Object.entries(item)) {
      const s = props.get(k);
      if (s && v.compile(s)(value)) present.add(k);
    }
  }
  return [...present].sort();
}

export function shapeOf(model: ServiceModel, op: Operation, e: Exchange): AnswerShape {
  const r = e.record;
  if (r.status === undefined) {
    const none = `no answer (${r.error ?? 'unknown'})`;
    return { status: none, businessCode: '-', envelope: '-', contentType: '-', fields: '-' };
  }
  return {
    status: `HTTP ${r.status}`,
    businessCode: r.businessCode === undefined ? 'none' : String(r.businessCode),
    envelope: envelopeOf(op, e),
    contentType: (r.contentType ?? '').split(';')[0]!.trim().toLowerCase() || '(none)',
    fields: validFields(model, op, e).join(', ') || '(none)',
  };
}
