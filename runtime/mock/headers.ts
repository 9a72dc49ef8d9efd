/**
 * The response headers a description requires (`required: true`): the mock sends each on every
 * answer whose declared response requires it, whatever produced the answer (the operation's
 * success, a declared scenario, a validation error, a wrong method's 405), valued from the
 * header's example where it holds, else from a seeded sample of its schema.
 */
import type { FastifyInstance } from 'fastify';
import {
  declaredResponse,
  type ResponseHeader,
  type Response,
  type ServiceModel,
} from 'dataapi/model';
import { operationsOf } from 'dataapi/runtime/server';
import { validatorFor } from 'dataapi/runtime/shared';
import { draw, hashText } from 'dataapi/runtime/sampler';

/** Headers the HTTP layer writes from the body and connection: never a sample's. */
const FRAMING = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** Samples tried for a value that can travel as a header. */
const TRIES = 5;

/** A value as a header carries it (simple style: list items and object pairs comma-separated). */
function headerText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => headerText(v) ?? '').join(',');
  if (typeof value === 'object')
    return Object.entries(value)
      .flatMap(([k, v]) => [k, headerText(v) ?? ''])
      .join(',');
  return undefined;
}

/** Visible ASCII without surrounding blanks: what survives the trip through HTTP unchanged. */
function sendable(text: string | undefined): text is string {
  return text !== undefined && /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/.test(text);
}

function valueOf(model: ServiceModel, header: ResponseHeader, seed: number): string | undefined {
  if (header.example !== undefined) {
    let holds = false;
    try {
      holds = validatorFor(model).compile(header.schema)(header.example) === true;
    } catch {
      holds = false; // a schema Ajv cannot compile: the sample below is sent unchecked
    }
    const text = headerText(header.example);
    if (holds && sendable(text)) return text;
  }
  for (let i = 0; i < TRIES; i++) {
    const text = headerText(draw(model, header.schema, { seed: (seed + i * 7919) | 0 }).value);
    if (sendable(text)) return text;
  }
  return undefined;
}

/** Adds the required headers of the declared response to every answer that lacks them. */
export function installDeclaredHeaders(app: FastifyInstance, model: ServiceModel, seed: number) {
  const values = new Map<Response, [string, string][]>();
  const valuesOf = (response: Response): [string, string][] => {
    let pairs = values.get(response);
    if (pairs) return pairs;
    pairs = [];
    for (const h of response.headers) {
      const name = h.name.toLowerCase();
      if (!h.required || FRAMING.has(name)) continue;
      const text = valueOf(model, h, (hashText(`${response.status} ${name}`) ^ seed) >>> 0);
      if (text !== undefined) pairs.push([name, text]);
    }
    values.set(response, pairs);
    return pairs;
  };
  // Not async: no promise per answer (a throw is Fastify's error path as a rejection is).
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const op of operationsOf(request)) {
      const response = declaredResponse(op, reply.statusCode);
      if (!response || response.headers.length === 0) continue;
      for (const [name, text] of valuesOf(response))
        if (!reply.hasHeader(name)) reply.header(name, text);
    }
    done(null, payload);
  });
}
