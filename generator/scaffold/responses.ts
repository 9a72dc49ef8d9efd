/**
 * The responses of a scaffolded operation: its 200 (the envelope of the chosen spelling around an
 * open payload, or the open payload alone, with an example that validates) and one error response
 * per status the service declares (docs/service.md §4), shared with the operations like it.
 */
import { isObject, type Obj } from '../../model/object.ts';
import { ERROR_STATUSES } from '../lint/types.ts';
import type { ExistingOperation } from './refusals.ts';
import type { ScaffoldRequest } from './request.ts';

/** Names of the shared error responses of docs/service.md §4, when the description follows the service's. */
const STANDARD_ERRORS: Record<string, string> = {
  '400': 'BadRequest',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'NotFound',
  '405': 'MethodNotAllowed',
  '415': 'UnsupportedMediaType',
  '429': 'TooManyRequests',
  '500': 'InternalServerError',
  '502': 'BadGateway',
};
const ERROR_MEANINGS: Record<string, string> = {
  '400': 'Parameter missing, malformed or illegal combination',
  '401': 'appkey missing or invalid',
  '403': 'Order expired, insufficient permission, or quota unavailable',
  '404': 'Path does not exist',
  '405': 'HTTP method not allowed for the path',
  '415': 'Content type of upload or body not accepted',
  '429': 'Rate limit exceeded',
  '500': 'Internal error; retry later',
  '502': 'Upstream dependency unavailable or abnormal',
};
/** A fixed time keeps the example (and so the generated output) deterministic. */
const EXAMPLE_TIME = '2025-01-01T08:00:00+08:00';

/** The 200 response, and the payload its example carries (what the handler returns). */
export function okResponse(
  doc: Obj,
  req: ScaffoldRequest,
  codes: string | undefined,
  success: number,
): { response: Obj; payload: unknown } {
  const { schema, example, payload } = successShape(doc, req.envelope, success);
  const description =
    req.envelope === 'none'
      ? 'The result. Its structure is to be described.'
      : `Accepted by the gateway. The business outcome is in the status object (group ${codes}); the payload's structure is to be described.`;
  const content = {
    'application/json': {
      schema,
      examples: { default: { summary: 'A successful call', value: example } },
    },
  };
  return { response: { description, content }, payload };
}

/** The 200 and every declared error status. */
export function responsesFor(
  doc: Obj,
  existing: ExistingOperation[],
  ok: Obj,
  codes: string | undefined,
): Obj {
  const responses: Obj = { '200': ok };
  for (const status of ERROR_STATUSES)
    responses[status] = errorResponse(doc, existing, status, codes);
  return responses;
}

function successShape(
  doc: Obj,
  envelope: ScaffoldRequest['envelope'],
  success: number,
): { schema: Obj; example: unknown; payload: unknown } {
  const payloadSchema = {
    type: 'object',
    description: 'The payload. Describe its fields here.',
    additionalProperties: true,
  };
  if (envelope === 'none') return { schema: payloadSchema, example: {}, payload: {} };
  const lower = envelope === 'lowerCamel';
  const f = (name: string) => (lower ? name.charAt(0).toLowerCase() + name.slice(1) : name);
  const schemas =
    isObject(doc['components']) && isObject(doc['components']['schemas'])
      ? doc['components']['schemas']
      : {};
  const statusName = lower ? 'LowerCamelDataStatus' : 'DataStatus';
  const statusSchema =
    statusName in schemas
      ? { $ref: `#/components/schemas/${statusName}` }
      : {
          type: 'object',
          required: [
            f('StatusCode'),
            f('StatusDescription'),
            f('ResponseDateTime'),
            f('DataTotalCount'),
          ],
          properties: {
            [f('StatusCode')]: { type: 'integer', format: 'int32' },
            [f('StatusDescription')]: { type: 'string' },
            [f('ResponseDateTime')]: { type: 'string' },
            [f('DataTotalCount')]: { type: 'integer', format: 'int32' },
          },
        };
  const statusKey = f('DataStatus');
  const payloadKey = f('Data');
  return {
    schema: {
      type: 'object',
      required: [statusKey, payloadKey],
      properties: { [statusKey]: statusSchema, [payloadKey]: payloadSchema },
    },
    example: {
      [statusKey]: {
        [f('StatusCode')]: success,
        [f('StatusDescription')]: 'OK',
        [f('ResponseDateTime')]: EXAMPLE_TIME,
        [f('DataTotalCount')]: 1,
      },
      [payloadKey]: {},
    },
    payload: {},
  };
}

/**
 * The error response for one status: what operations of the same code group use, else the
 * standard shared response, else what most operations use, else a plain CommonResponse body.
 */
function errorResponse(
  doc: Obj,
  existing: { raw: Obj }[],
  status: string,
  codes: string | undefined,
): Obj {
  const refsOf = (ops: { raw: Obj }[]) => {
    const count = new Map<string, number>();
    for (const e of ops) {
      const r = isObject(e.raw['responses']) ? e.raw['responses'][status] : undefined;
      const ref = isObject(r) && typeof r['$ref'] === 'string' ? r['$ref'] : undefined;
      if (ref?.startsWith('#/components/responses/')) count.set(ref, (count.get(ref) ?? 0) + 1);
    }
    return [...count.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  };
  const components = isObject(doc['components']) ? doc['components'] : {};
  const shared = isObject(components['responses']) ? components['responses'] : {};
  const sameGroup =
    codes !== undefined
      ? refsOf(existing.filter((e) => e.raw['x-dataapi-business-codes'] === codes))
      : undefined;
  const standard = STANDARD_ERRORS[status];
  const ref =
    sameGroup ??
    (standard !== undefined && standard in shared
      ? `#/components/responses/${standard}`
      : undefined) ??
    refsOf(existing);
  if (ref !== undefined) return { $ref: ref };
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  return {
    description: `${ERROR_MEANINGS[status] ?? 'Error'} (docs/service.md §4).`,
    content: {
      'application/json': {
        schema:
          'CommonResponse' in schemas
            ? { $ref: '#/components/schemas/CommonResponse' }
            : { type: 'object' },
      },
    },
  };
}
