/**
 * Two shapes of real descriptions the loader used to refuse or misread (issue 26, class 10): a
 * `$ref` written where a map of properties belongs is read as `allOf` with a warning, and a
 * discriminator mapping that points into another file of a split description follows the schema
 * the bundler moved, so the server tells the options apart by it. And (class 4) a readOnly
 * property required in a sibling allOf branch is not demanded in a request.
 */
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { registerService, type Handler } from 'dataapi/runtime/server';
import { sample } from 'dataapi/runtime/sampler';
import { validatorFor } from 'dataapi/runtime/shared';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

const echo: Handler = async ({ body }) => ({ body });
let app: FastifyInstance | undefined;
afterEach(() => app?.close());

async function serve(model: ServiceModel): Promise<(p: string, body: unknown) => Promise<number>> {
  app = Fastify();
  const handlers = Object.fromEntries(model.operations.map((o) => [o.id, echo]));
  await registerService(app, { model, handlers, rateLimit: false, insecureAnyKey: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return async (p, body) => {
    const res = await fetch(url + p, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    await res.arrayBuffer();
    return res.status;
  };
}

describe('properties: { $ref }', () => {
  it('is read as allOf: [{ $ref }], with a finding at its place', async () => {
    const spec = await loadSpec(path.join(FIXTURES, 'generality/properties-ref.yaml'));
    const model = normalise(spec);
    expect(model.findings.map((f) => [f.code, f.pointer])).toContainEqual([
      'schema-properties-ref',
      '/components/schemas/A/properties/$ref',
    ]);
    const post = await serve(model);
    expect(await post('/a', { x: 'y' })).toBe(200);
    expect(await post('/a', {})).toBe(400); // Base's required x binds A
  });
});

describe('a discriminator mapping into other files', () => {
  it('names the bundled options, so the server tells them apart by the property', async () => {
    const spec = await loadSpec(path.join(FIXTURES, 'generality/split-mapping/openapi.yaml'));
    const schemas = (spec.document['components'] as any).schemas as Record<string, any>;
    const pet = Object.values(schemas).find((s) => s.discriminator);
    const refs = pet.oneOf.map((o: { $ref: string }) => o.$ref);
    expect(pet.discriminator.mapping).toEqual({ cat: refs[0], dog: refs[1] });
    const post = await serve(normalise(spec));
    expect(await post('/pets', { kind: 'cat', meows: true })).toBe(200);
    expect(await post('/pets', { kind: 'dog', meows: true })).toBe(400);
  });
});

describe('readOnly in one allOf branch, required in a sibling or the schema itself', () => {
  it('is not demanded in a request, while the other required fields are', async () => {
    const spec = await loadSpec(path.join(FIXTURES, 'generality/readonly-allof.yaml'));
    const model = normalise(spec);
    // The flag copied beside `required` constrains nothing: samples still fit (and carry the id).
    for (const op of model.operations) {
      const value = sample(model, op.body!.schema) as Record<string, unknown>;
      expect(validatorFor(model).compile(op.body!.schema)(value), op.id).toBe(true);
      expect(typeof value['id'], op.id).toBe('string');
    }
    const post = await serve(model);
    for (const p of ['/widgets', '/gadgets']) {
      expect(await post(p, { name: 'w' }), p).toBe(200);
      expect(await post(p, { id: 'i' }), p).toBe(400);
    }
  });
});
