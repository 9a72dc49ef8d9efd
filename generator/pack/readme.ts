/**
 * What the packed client's README says about each operation, computed from the model (the
 * template only lays it out): method and path, parameters with a short type, the body, the
 * errors it declares (HTTP responses and business codes) and its rate limit.
 */
import { onTransport } from '../../model/locations.ts';
import { allParameters } from '../../model/queries.ts';
import type { JsonSchema, Operation } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';

export interface ReadmeParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  description?: string;
}

export interface ReadmeError {
  status: string;
  text: string;
}

export interface ReadmeOperation {
  id: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  preview?: string;
  previewPath?: string;
  parameters: ReadmeParameter[];
  body?: { mediaType: string; required: boolean; type: string; files: string[] };
  result: string;
  errors: ReadmeError[];
  businessCodes: { code: number; meaning: string; outcome: string }[];
  rateLimit: string;
  keyIn: string;
  wait?: string;
}

/** A short type of a schema: `string`, `integer`, `"a" \| "b"`, `Foo[]`, `object`. */
export function typeOf(schema: JsonSchema | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'any';
  if (schema === false) return 'never';
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return decodeURIComponent(s.$ref.split('/').pop() ?? 'object');
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  for (const key of ['oneOf', 'anyOf'] as const)
    if (Array.isArray(s[key]) && depth < 2)
      return (s[key] as JsonSchema[]).map((x) => typeOf(x, depth + 1)).join(' | ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string | undefined];
  return types
    .map((t) => {
      if (t === 'array') return `${typeOf(s.items as JsonSchema | undefined, depth + 1)}[]`;
      if (t === undefined) return s.properties ? 'object' : 'any';
      return typeof s.format === 'string' ? `${t} (${s.format})` : t;
    })
    .join(' | ');
}

const named = (t: { in: string; name: string }) => `${t.in} ${t.name}`;

const PER = { second: 'second', minute: 'minute', hour: 'hour' } as const;

export function readmeOperations(model: ServiceModel): ReadmeOperation[] {
  return model.operations.map((op) => {
    const group = model.businessCodeGroups.find((g) => g.name === op.businessCodes);
    const transports = op.auth.transports.map((t) =>
      onTransport(t, {
        query: named,
        header: named,
        cookie: named,
        body: named,
        bearer: () => 'Authorization: Bearer',
        basic: () => 'Authorization: Basic',
      }),
    );
    return {
      id: op.id,
      method: op.method.toUpperCase(),
      path: op.path,
      ...(op.summary ? { summary: op.summary } : {}),
      ...(op.description ? { description: firstParagraph(op.description) } : {}),
      deprecated: op.deprecated,
      ...(op.preview ? { preview: op.preview.id, previewPath: op.preview.path } : {}),
      parameters: allParameters(op.parameters).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required,
        type: typeOf(p.schema),
        ...(p.description ? { description: p.description } : {}),
      })),
      ...(op.body
        ? {
            body: {
              mediaType: op.body.mediaType,
              required: op.body.required,
              type: typeOf(op.body.schema),
              files: op.body.fileFields,
            },
          }
        : {}),
      result: resultOf(op),
      errors: op.responses
        .filter((r) => !/^2/.test(r.status))
        .map((r) => ({ status: r.status, text: r.description.trim().replace(/\.$/, '') })),
      businessCodes: (group?.codes ?? [])
        .filter((c) => c.code !== group?.successCode)
        .map((c) => ({ code: c.code, meaning: c.meaning, outcome: c.outcome })),
      rateLimit: op.rateLimits
        .map((w) => `${w.limit} per ${PER[w.per]}${w.source === 'default' ? ' (default)' : ''}`)
        .join(' and '),
      keyIn: transports.length > 0 ? transports.join(' or ') : 'no key',
      ...(op.async?.role === 'submit' ? { wait: `${op.id}AndWait` } : {}),
    };
  });
}

function resultOf(op: Operation): string {
  if (op.streaming) return 'a stream of server-sent events';
  if (op.envelope && op.payloadSchema !== undefined)
    return `${typeOf(op.payloadSchema)} (the ${op.envelope.payloadKey} of the envelope)`;
  return op.success?.schema !== undefined ? typeOf(op.success.schema) : 'no body';
}

function firstParagraph(text: string): string {
  return (text.split(/\n\s*\n/)[0] ?? '').trim();
}
