/**
 * Any valid description: odd path keys, path-item $ref, webhooks, server-variable enums and
 * schemas Ajv would refuse are normalised with located findings (never fatal); the mock starts on
 * each third-party fixture, routes shared method+path operations per request, answers its own
 * errors in the declared shape (else RFC 9457), and answers binary and event-stream responses.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allParameters, type ServiceModel } from 'dataapi/model';
import { createMock } from 'dataapi/runtime/mock';
import { basicHeader } from 'dataapi/runtime/shared';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';

const FIXTURES = path.resolve('test/fixtures');
const load = async (rel: string) => normalise(await loadSpec(path.join(FIXTURES, rel)));

describe('odd paths', () => {
  let model: ServiceModel;
  beforeAll(async () => {
    model = await load('odd/paths.yaml');
  });

  it('splits path keys into a routable path, a distinct id and fixed query parameters', () => {
    const link = model.operations.find((o) => o.pathKey === '/files/{file_id}#add_shared_link')!;
    expect(link).toMatchObject({ path: '/files/{file_id}', id: 'putFilesIdAddSharedLink' });
    const beta = model.operations.find((o) => o.pathKey === '/responses?beta=true')!;
    expect(beta.path).toBe('/responses');
    expect(beta.parameters.query.find((p) => p.name === 'beta')).toMatchObject({
      fixed: 'true',
      required: true,
    });
    expect(new Set(model.operations.map((o) => o.id)).size).toBe(model.operations.length);
  });

  it('follows path-item $ref, keeps path-level parameters, webhooks and server enums', () => {
    const things = model.operations.find((o) => o.path === '/things')!;
    expect(allParameters(things.parameters).map((p) => p.name)).toEqual(['limit']);
    expect(model.webhooks.map((w) => w.pointer)).toEqual(['/webhooks/newThing/post']);
    expect(model.servers[0]!.variables['region']).toMatchObject({ enum: ['eu', 'us'] });
  });

  it('reports every repair as a located finding', () => {
    const codes = model.findings.map((f) => `${f.code} ${f.pointer}`);
    expect(codes).toContain('schema-empty-enum /components/schemas/File/properties/kind/enum');
    expect(codes).toContain('schema-bad-pattern /components/schemas/Thing/properties/name/pattern');
    expect(codes).toContain('schema-2019-09-keyword /components/schemas/Thing/$recursiveAnchor');
    // Ajv knows only the 2020-12 meta-schema: another dialect's `$schema` is read as 2020-12.
    expect(codes).toContain('schema-dialect /components/schemas/Thing/$schema');
    const dup = model.findings.find((f) => f.code === 'schema-duplicate-required')!;
    expect(dup.operation).toBe('postResponsesBetaTrue');
    expect(dup.line).toBeGreaterThan(0);
    expect(model.findings.filter((f) => f.code === 'path-key-fragment')).toHaveLength(1);
  });

  it('the mock serves them: shared routes, SSE, binary, problem+json errors', async () => {
    const app = await createMock(model, { rateLimit: false });
    try {
      const plain = await app.inject({ method: 'PUT', url: '/files/1', payload: {} });
      expect(plain.statusCode).toBe(200);
      expect(plain.json()).toHaveProperty('id');
      const link = await app.inject({ method: 'PUT', url: '/files/1?fields=shared_link' });
      expect(link.json()).toHaveProperty('shared_link');
      const beta = await app.inject({
        method: 'POST',
        url: '/responses?beta=true',
        payload: { input: 'x' },
      });
      expect(beta.statusCode).toBe(200);
      const missing = await app.inject({
        method: 'POST',
        url: '/responses?beta=true',
        headers: { 'content-type': 'application/json' },
      });
      expect(missing.statusCode).toBe(400);
      const sse = await app.inject({ url: '/stream' });
      expect(sse.statusCode).toBe(200);
      expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(sse.body).toMatch(/^data: /);
      const bin = await app.inject({ url: '/download' });
      expect(bin.statusCode).toBe(200);
      expect(bin.headers['content-type']).toMatch(/^application\/octet-stream/);
      const wrong = await app.inject({ method: 'DELETE', url: '/download' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(wrong.json()).toMatchObject({ status: 405 });
    } finally {
      await app.close();
    }
  });
});

describe('third-party fixtures', () => {
  it.each(['museum.yaml', 'twilio-verify-v2.json', 'adyen-management-v3.json', 'box.json'])(
    '%s: the mock starts and answers missing credentials in the declared shape',
    async (file) => {
      const model = await load(`third-party/${file}`);
      const app = await createMock(model, { rateLimit: false });
      try {
        const op = model.operations.find(
          (o) =>
            o.auth.required &&
            o.method === 'get' &&
            o.parameters.path.length === 0 &&
            !allParameters(o.parameters).some((p) => p.required),
        );
        if (!op) return;
        const res = await app.inject({ url: op.path });
        expect(res.statusCode).toBe(401);
        const declared =
          op.responses.find((r) => r.status === '401') ??
          op.responses.find((r) => r.status === '4XX') ??
          op.responses.find((r) => r.status === 'default');
        if (declared?.mediaType) expect(res.headers['content-type']).toContain(declared.mediaType);
        else if (!declared) expect(res.headers['content-type']).toMatch(/problem\+json/);
        const basic = op.auth.transports.find((t) => t.in === 'basic');
        if (basic) {
          const ok = await app.inject({
            url: op.path,
            headers: { authorization: basicHeader('mock-appkey:secret') },
          });
          expect(ok.statusCode).not.toBe(401);
        }
      } finally {
        await app.close();
      }
    },
  );
});
