/**
 * A 405 answers the route, not the resource: a wrong method on a resource the suite made up (the
 * valid request got 404) is still judged when the server answers it 405, and a 405 without
 * `Allow` fails `method-path` (RFC 9110 §15.5.6; PowerDNS's zone routes, docs/field.md). A 404 to
 * the wrong method leaves the check not tested, as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, find, runCli, type CliRun } from './harness.ts';

const SPEC = `openapi: 3.0.3
info: { title: allow on a missing resource, version: '1' }
paths:
  /zones/{zoneId}:
    parameters: [{ name: zoneId, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getZone
      responses: { '200': { description: the zone }, '404': { description: no such zone } }
  /keys/{keyId}:
    parameters: [{ name: keyId, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getKey
      responses: { '200': { description: the key }, '404': { description: no such key } }
`;

/** No zone and no key exists; a wrong method on a zone gets 405 without Allow, on a key 404. */
async function startServer(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.get('/zones/:id', async (_req, reply) => reply.code(404).send());
  app.get('/keys/:id', async (_req, reply) => reply.code(404).send());
  app.setNotFoundHandler(async (req, reply) =>
    /^\/zones\/[^/]+$/.test(req.url.split('?')[0]!)
      ? reply.code(405).type('text/plain').send('Method Not Allowed')
      : reply.code(404).send(),
  );
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

describe('a 405 on a resource the suite made up', () => {
  let server: { app: FastifyInstance; url: string };
  let dir: string;
  let run: CliRun;
  beforeAll(async () => {
    server = await startServer();
    dir = await mkdtemp(path.join(tmpdir(), 'dataapi-allow-'));
    await writeFile(path.join(dir, 'spec.yaml'), SPEC);
    run = await runCli(
      'contract',
      ['--spec', path.join(dir, 'spec.yaml'), '--base-url', server.url],
      'allow-missing',
    );
  }, 300_000);
  afterAll(async () => {
    await server?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails method-path for the missing Allow; a 404 to the wrong method stays not tested', () => {
    expect(failedOf(run), run.stdout.slice(-3000)).toEqual(['getZone method-path main']);
    expect(find(run, 'getZone', 'method-path')!.message).toContain('no Allow header');
    expect(find(run, 'getKey', 'method-path')!.notTested).toBe('missing-test-data');
    expect(find(run, 'getZone', 'status')!.notTested).toBe('missing-test-data');
  });
});
