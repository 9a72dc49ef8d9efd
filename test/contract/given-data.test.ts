/**
 * `dataapi contract --test-data FILE`: values a QA engineer gives replace the examples and schema
 * samples of the valid requests; data the description refuses stops the run before any request.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './harness.ts';

const SPEC = path.join(ROOT, 'test/fixtures/negatives/given.yaml');

async function dataFile(content: string, ext = 'json'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-given-'));
  const file = path.join(dir, `data.${ext}`);
  await writeFile(file, content);
  return file;
}

describe('contract --test-data', () => {
  it('sends the given body and parameters as the valid requests', async () => {
    const file = await dataFile(
      'createZone:\n  body: { name: probe.example., kind: Master }\nsearchData:\n  query: { q: probe-term, max: 3 }\n',
      'yaml',
    );
    const run = await runCli('contract', ['--spec', SPEC, '--test-data', file], 'given-ok');
    expect(run.code, run.stderr).toBe(0);
    const exchanges = run.result!.results.flatMap((r) =>
      r.exchanges.map((e) => ({ op: r.operation, ...e.request })),
    );
    const valid = (op: string) =>
      exchanges.filter((e) => e.op === op && e.purpose.startsWith('valid request'));
    expect(valid('createZone').map((e) => e.purpose)).toContain('valid request (test data)');
    const search = valid('searchData').map((e) => new URL(e.url).searchParams);
    expect(search.length).toBeGreaterThan(0);
    for (const q of search) {
      expect(q.get('q')).toBe('probe-term');
      expect(q.get('max')).toBe('3');
    }
  });

  it('refuses data the description refuses, naming each problem, before any request', async () => {
    const file = await dataFile(
      JSON.stringify({
        createZone: { body: { kind: 'Bogus' } },
        searchData: { query: { maxx: 1 } },
        createZonee: {},
      }),
    );
    const run = await runCli('contract', ['--spec', SPEC, '--test-data', file], 'given-bad');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--test-data ${file}: 3 problems`);
    expect(run.stderr).toMatch(/createZone\.body: .*name/);
    expect(run.stderr).toMatch(/createZone\.body: .*kind|must be equal to one of/);
    expect(run.stderr).toMatch(
      /searchData\.query\.maxx: the operation has no query parameter "maxx" \(did you mean "max"\?\)/,
    );
    expect(run.stderr).toMatch(/createZonee: no such operation.*createZone/);
    expect(run.result).toBeUndefined();
  });

  it('refuses a file that is not an object of operations', async () => {
    const file = await dataFile('[1, 2]');
    const run = await runCli('contract', ['--spec', SPEC, '--test-data', file], 'given-shape');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the file must hold an object keyed by operation id');
  });

  it('takes a 409 to a negative case as a refusal: the resource the test data named exists', async () => {
    // A server that checks for the zone before it reads the other fields, as PowerDNS does.
    const app = Fastify();
    const zones = new Set<string>();
    app.post('/zones', async (req, reply) => {
      const body = req.body as { name?: unknown } | undefined;
      if (typeof body?.name !== 'string') return reply.code(400).send({});
      if (zones.has(body.name)) return reply.code(409).send({});
      zones.add(body.name);
      return reply.code(201).send({ id: body.name });
    });
    app.get('/search', async () => ({}));
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const file = await dataFile(JSON.stringify({ createZone: { body: { name: 'p.example.' } } }));
      const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const run = await runCli(
        'contract',
        [
          '--spec',
          SPEC,
          '--base-url',
          base,
          '--allow-writes',
          '--test-data',
          file,
          '--only',
          'createZone',
        ],
        'given-409',
      );
      const negative = run.result!.results.find(
        (r) => r.operation === 'createZone' && r.check === 'negative',
      );
      const refusedBy409 = negative!.exchanges.filter((e) => e.status === 409);
      expect(refusedBy409.length, JSON.stringify(negative)).toBeGreaterThan(0);
      expect(negative!.status, negative!.message).toBe('passed');
    } finally {
      await app.close();
    }
  });
});
