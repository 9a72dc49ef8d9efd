/**
 * Plans a scaffolded operation against the description: refuses clashes (refusals.ts) and builds
 * the operation objects in the spec's own key order (operationId, tags, summary, description,
 * security, parameters, requestBody, responses, x-dataapi-*), with its /demo preview variant and
 * an example that validates (inputs.ts, responses.ts).
 */
import type { Obj } from '../../model/object.ts';
import { parametersFor, requestBodyFor } from './inputs.ts';
import {
  checkedFields,
  codeGroupFor,
  existingOperations,
  operationIdFor,
  refuseRouteClash,
  refuseUnknownCategory,
} from './refusals.ts';
import { pathParameters, type ScaffoldRequest } from './request.ts';
import { okResponse, responsesFor } from './responses.ts';

export interface PlannedEntry {
  path: string;
  method: string;
  operation: Obj;
}

export interface ScaffoldPlan {
  id: string;
  entries: PlannedEntry[];
  /** What the handler returns: the payload of the 200 example (the body for plain JSON). */
  payloadExample: unknown;
}

function sentence(id: string): string {
  const words = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function plan(doc: Obj, req: ScaffoldRequest): ScaffoldPlan {
  const existing = existingOperations(doc);
  refuseRouteClash(doc, existing, req);
  refuseUnknownCategory(doc, req.category);
  const { codes, success } = codeGroupFor(doc, req);
  const id = operationIdFor(existing, req);
  const pathNames = pathParameters(req.path);
  const params = checkedFields(req, pathNames);
  const ok = okResponse(doc, req, codes, success);
  const shared = sharedParts(doc, req, {
    parameters: parametersFor(params, pathNames),
    requestBody: requestBodyFor(req),
    responses: responsesFor(doc, existing, ok.response, codes),
    codes,
  });
  const summary = req.summary ?? sentence(id);
  const base: Obj = {
    operationId: id,
    tags: [req.category],
    summary,
    description: `${summary}. Added by dataapi scaffold: describe its parameters, payload and rules here.`,
    ...shared(req.preview),
  };
  const entries: PlannedEntry[] = [{ path: req.path, method: req.method, operation: base }];
  if (req.preview) entries.push(previewEntry(req, id, summary, shared(false)));
  return { id, entries, payloadExample: ok.payload };
}

interface Parts {
  parameters: Obj[];
  requestBody: Obj | undefined;
  responses: Obj;
  codes: string | undefined;
}

/** What the operation and its preview share, as a fresh copy for each. */
function sharedParts(doc: Obj, req: ScaffoldRequest, parts: Parts): (preview: boolean) => Obj {
  const { parameters, requestBody, responses, codes } = parts;
  const rootRate = doc['x-dataapi-rate-limit'] !== undefined;
  const rateLimit = req.rateLimit ?? (rootRate ? undefined : { limit: 5, per: 'second' });
  return (preview) => ({
    ...(parameters.length > 0 ? { parameters: structuredClone(parameters) } : {}),
    ...(requestBody ? { requestBody: structuredClone(requestBody) } : {}),
    responses: structuredClone(responses),
    'x-dataapi-envelope': req.envelope,
    ...(codes !== undefined ? { 'x-dataapi-business-codes': codes } : {}),
    'x-dataapi-preview': preview,
    ...(rateLimit ? { 'x-dataapi-rate-limit': { ...rateLimit } } : {}),
    ...(req.method !== 'get' ? { 'x-dataapi-writes': req.writes } : {}),
  });
}

/** The /demo variant: the same inputs and responses, no key. */
function previewEntry(
  req: ScaffoldRequest,
  id: string,
  summary: string,
  shared: Obj,
): PlannedEntry {
  const { 'x-dataapi-preview': _ignored, ...rest } = shared;
  // Keep the spec's key order: x-dataapi-preview before the rest of the extensions.
  const operation = reorder({
    operationId: `${id}Demo`,
    tags: [req.category],
    summary: `${summary} (preview, no key)`,
    description: `Preview variant of ${id} at the same path plus /demo, called without an appkey. Parameters and responses are those of ${id}.`,
    security: [],
    ...rest,
    'x-dataapi-preview': false,
    'x-dataapi-preview-of': id,
  });
  return { path: `${req.path}/demo`, method: req.method, operation };
}

function reorder(op: Obj): Obj {
  const order = [
    'operationId',
    'tags',
    'summary',
    'description',
    'security',
    'parameters',
    'requestBody',
    'responses',
    'x-dataapi-envelope',
    'x-dataapi-business-codes',
    'x-dataapi-preview',
    'x-dataapi-preview-of',
    'x-dataapi-rate-limit',
    'x-dataapi-writes',
  ];
  const out: Obj = {};
  for (const k of order) if (k in op) out[k] = op[k];
  for (const [k, v] of Object.entries(op)) if (!(k in out)) out[k] = v;
  return out;
}
