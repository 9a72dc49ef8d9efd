/**
 * Whether a deleted resource is gone is judged only against how the target answers a missing
 * one: a GET that still answers 200 after the DELETE fails `lifecycle` where a made-up id gets
 * 404, and is not judged where the made-up id itself is refused (400: AWS Omics' ids, whose
 * pattern the made-up value did not match, failed against the suite's own mock).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, find, runCli, type CliRun } from './harness.ts';

const resource = (name: string) => `
  /${name}:
    post:
      operationId: create_${name}
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { label: { type: string } } } } }
      responses:
        '201':
          description: created
          content: { application/json: { schema: { type: object, required: [id], properties: { id: { type: string } } } } }
  /${name}/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: get_${name}
      responses:
        '200':
          description: the resource
          content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } }
        '400': { description: not an id }
        '404': { description: no such resource }
    delete:
      operationId: delete_${name}
      responses: { '204': { description: deleted }, '400': { description: not an id }, '404': { description: no such resource } }
`;

const SPEC = `openapi: 3.0.3
info: { title: gone after delete, version: '1' }
paths:${resource('things')}${resource('items')}`;

/**
 * A server whose DELETE forgets nothing: what it created answers 200 for ever. An id it never
 * gave out is refused as malformed (400) under /things and as missing (404) under /items.
 */
async function startServer(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  const made = new Set<string>();
  let next = 1000;
  for (const name of ['things', 'items']) {
    const unknown = name === 'things' ? 400 : 404;
    app.post(`/${name}`, async (_req, reply) => {
      const id = `${name}-${next++}`;
      made.add(id);
      return reply.code(201).send({ id });
    });
    app.get<{ Params: { id: string } }>(`/${name}/:id`, async (req, reply) =>
      made.has(req.params.id) ? reply.send({ id: req.params.id }) : reply.code(unknown).send(),
    );
    app.delete<{ Params: { id: string } }>(`/${name}/:id`, async (req, reply) =>
      reply.code(made.has(req.params.id) ? 204 : unknown).send(),
    );
  }
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

describe('a deleted resource that still answers', () => {
  let server: { app: FastifyInstance; url: string };
  let dir: string;
  let run: CliRun;
  beforeAll(async () => {
    server = await startServer();
    dir = await mkdtemp(path.join(tmpdir(), 'dataapi-gone-'));
    await writeFile(path.join(dir, 'spec.yaml'), SPEC);
    run = await runCli(
      'contract',
      ['--spec', path.join(dir, 'spec.yaml'), '--base-url', server.url, '--allow-writes'],
      'gone-after-delete',
    );
  }, 300_000);
  afterAll(async () => {
    await server?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails lifecycle where a made-up id is missing (404), not where it is refused (400)', () => {
    // The server's other faults (it takes any body, answers a wrong method 404) are not this test's.
    const lifecycle = failedOf(run).filter((f) => f.includes(' lifecycle '));
    expect(lifecycle, run.stdout.slice(-3000)).toEqual(['deleteItems lifecycle main']);
    expect(find(run, 'deleteItems', 'lifecycle')!.message).toContain(
      'getItems still answers HTTP 200 for what deleteItems deleted',
    );
    const things = find(run, 'deleteThings', 'lifecycle')!;
    expect(things.status).toBe('passed');
    const madeUp = things.exchanges.find(
      (e) => e.request.purpose === 'getThings with a made-up identifier',
    );
    expect(madeUp?.status).toBe(400);
  });
});
