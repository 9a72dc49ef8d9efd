/**
 * Plans a scaffolded operation against the description: refuses clashes (path and method, path
 * template, category, code group, operationId) and builds the operation objects in the spec's
 * own key order (operationId, tags, summary, description, security, parameters, requestBody,
 * responses, x-dataapi-*), with its /demo preview variant and an example that validates.
 */
import { toIdentifier } from '../../model/identifiers.ts';
import { didYouMean } from '../../model/suggest.ts';
import { METHODS } from '../normalise/index.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { ERROR_STATUSES } from '../lint/types.ts';
import { pathParameters, ScaffoldError, type FieldSpec, type ScaffoldRequest } from './request.ts';

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

const template = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

function sampleValue(field: FieldSpec): unknown {
  switch (field.type) {
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return `example ${field.name}`.slice(0, 40);
  }
}

function sentence(id: string): string {
  const words = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function plan(doc: Obj, req: ScaffoldRequest): ScaffoldPlan {
  const pathNames = pathParameters(req.path);
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  const demoPath = `${req.path}/demo`;
  const existing: { path: string; method: string; raw: Obj }[] = [];
  for (const [p, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const m of METHODS)
      if (isObject(item[m])) existing.push({ path: p, method: m, raw: item[m] });
  }
  const method = req.method;
  for (const wanted of req.preview ? [req.path, demoPath] : [req.path]) {
    if (existing.some((e) => e.path === wanted && e.method === method)) {
      throw new ScaffoldError(
        `${method.toUpperCase()} ${wanted} already exists in the description; choose another path or method`,
      );
    }
    // /a/{x} and /a/{y} are the same route to a server: OpenAPI forbids both.
    const twin = Object.keys(paths).find((p) => p !== wanted && template(p) === template(wanted));
    if (twin !== undefined) {
      throw new ScaffoldError(
        `${wanted} is the same route as the existing path ${twin} (only the parameter names differ); use ${twin}`,
      );
    }
  }

  const tags = (Array.isArray(doc['tags']) ? doc['tags'] : [])
    .filter(isObject)
    .map((t) => t['name'])
    .filter((n): n is string => typeof n === 'string');
  if (!tags.includes(req.category)) {
    throw new ScaffoldError(
      `unknown category ${JSON.stringify(req.category)}${didYouMean(req.category, tags)}. A category is one of the root tags: ${tags.map((t) => JSON.stringify(t)).join(', ') || 'none declared'}`,
    );
  }

  const groups = isObject(doc['x-dataapi-business-code-groups'])
    ? doc['x-dataapi-business-code-groups']
    : {};
  let codes = req.codes;
  if (req.envelope === 'none') {
    if (codes !== undefined)
      throw new ScaffoldError(
        '--codes needs an envelope: a plain JSON operation (--envelope none) carries no business status code',
      );
  } else {
    codes ??= 'base' in groups ? 'base' : undefined;
    if (codes === undefined || !(codes in groups)) {
      throw new ScaffoldError(
        codes === undefined
          ? `name the business code group with --codes (declared: ${Object.keys(groups).join(', ') || 'none'})`
          : `unknown business code group ${JSON.stringify(codes)}; declared in x-dataapi-business-code-groups: ${Object.keys(groups).join(', ') || 'none'}`,
      );
    }
  }
  const group = codes !== undefined ? groups[codes] : undefined;
  const success = isObject(group) && typeof group['success'] === 'number' ? group['success'] : 100;

  const id =
    req.id ?? toIdentifier(`${method} ${req.path.replace(/\{([^}]*)\}/g, ' by $1 ')}`, 'operation');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(id) || toIdentifier(id) !== id) {
    throw new ScaffoldError(
      `--id ${JSON.stringify(id)} is not usable as is in generated code: use a camelCase identifier such as ${toIdentifier(id)}`,
    );
  }
  const taken = new Map(
    existing
      .map((e) => e.raw['operationId'])
      .filter((v): v is string => typeof v === 'string')
      .map((v) => [v.toLowerCase(), v]),
  );
  // Generated code also names the preview `<id>Preview`; names are compared case-insensitively
  // because generated file names are.
  for (const name of [id, ...(req.preview ? [`${id}Demo`, `${id}Preview`] : [])]) {
    const clash = taken.get(name.toLowerCase());
    if (clash !== undefined)
      throw new ScaffoldError(
        `the operationId ${name} clashes with the existing operationId ${clash}; choose another with --id`,
      );
  }

  for (const p of pathNames) {
    const given = req.params.find((f) => f.name === p);
    if (given && !given.required) given.required = true; // path parameters are always required
  }
  const params: FieldSpec[] = [
    ...pathNames.map(
      (name) =>
        req.params.find((f) => f.name === name) ?? {
          name,
          type: 'string' as const,
          required: true,
        },
    ),
    ...req.params.filter((f) => !pathNames.includes(f.name)),
  ];
  const seen = new Set<string>();
  for (const f of params) {
    if (seen.has(f.name)) throw new ScaffoldError(`--param ${f.name} is given twice`);
    seen.add(f.name);
    if (f.name.toLowerCase() === 'appkey')
      throw new ScaffoldError('appkey is the key transport of the security scheme, not a --param');
  }
  const bodyNames = new Set<string>();
  for (const f of req.bodyFields) {
    if (bodyNames.has(f.name)) throw new ScaffoldError(`--body-field ${f.name} is given twice`);
    bodyNames.add(f.name);
  }
  if (req.bodyFields.length > 0 && (method === 'get' || method === 'delete')) {
    throw new ScaffoldError(
      `a ${method.toUpperCase()} operation takes no request body; drop --body-field or use --method post`,
    );
  }

  const summary = req.summary ?? sentence(id);
  const parameters = params.map((f) => ({
    name: f.name,
    in: pathNames.includes(f.name) ? 'path' : 'query',
    ...(f.required || pathNames.includes(f.name) ? { required: true } : {}),
    schema: { type: f.type },
    example: sampleValue(f),
  }));
  const requestBody =
    req.bodyFields.length > 0
      ? {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                ...(req.bodyFields.some((f) => f.required)
                  ? { required: req.bodyFields.filter((f) => f.required).map((f) => f.name) }
                  : {}),
                properties: Object.fromEntries(
                  req.bodyFields.map((f) => [f.name, { type: f.type }]),
                ),
              },
              examples: {
                default: {
                  summary: 'Every field of the body',
                  value: Object.fromEntries(req.bodyFields.map((f) => [f.name, sampleValue(f)])),
                },
              },
            },
          },
        }
      : undefined;

  const { schema: okSchema, example, payload } = successShape(doc, req.envelope, success);
  const ok = {
    description:
      req.envelope === 'none'
        ? 'The result. Its structure is to be described.'
        : `Accepted by the gateway. The business outcome is in the status object (group ${codes}); the payload's structure is to be described.`,
    content: {
      'application/json': {
        schema: okSchema,
        examples: { default: { summary: 'A successful call', value: example } },
      },
    },
  };
  const responses: Obj = { '200': ok };
  for (const status of ERROR_STATUSES)
    responses[status] = errorResponse(doc, existing, status, codes);

  const rootRate = doc['x-dataapi-rate-limit'] !== undefined;
  const rateLimit = req.rateLimit ?? (rootRate ? undefined : { limit: 5, per: 'second' });
  const shared = (preview: boolean): Obj => ({
    ...(parameters.length > 0 ? { parameters: structuredClone(parameters) } : {}),
    ...(requestBody ? { requestBody: structuredClone(requestBody) } : {}),
    responses: structuredClone(responses),
    'x-dataapi-envelope': req.envelope,
    ...(codes !== undefined ? { 'x-dataapi-business-codes': codes } : {}),
    'x-dataapi-preview': preview,
    ...(rateLimit ? { 'x-dataapi-rate-limit': { ...rateLimit } } : {}),
    ...(method !== 'get' ? { 'x-dataapi-writes': req.writes } : {}),
  });
  const base: Obj = {
    operationId: id,
    tags: [req.category],
    summary,
    description: `${summary}. Added by dataapi scaffold: describe its parameters, payload and rules here.`,
    ...shared(req.preview),
  };
  const entries: PlannedEntry[] = [{ path: req.path, method, operation: base }];
  if (req.preview) {
    const { 'x-dataapi-preview': _ignored, ...rest } = shared(false);
    entries.push({
      path: demoPath,
      method,
      operation: {
        operationId: `${id}Demo`,
        tags: [req.category],
        summary: `${summary} (preview, no key)`,
        description: `Preview variant of ${id} at the same path plus /demo, called without an appkey. Parameters and responses are those of ${id}.`,
        security: [],
        ...rest,
        'x-dataapi-preview': false,
        'x-dataapi-preview-of': id,
      },
    });
    // Keep the spec's key order: x-dataapi-preview before the rest of the extensions.
    const demo = entries[1]!.operation;
    entries[1]!.operation = reorder(demo);
  }
  return { id, entries, payloadExample: payload };
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
