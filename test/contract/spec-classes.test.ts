/**
 * Classes of problem real descriptions have, one operation each (test/fixtures/odd/classes.yaml):
 * operations told apart only by a required query value or a body media type, parameter styles
 * (non-exploded lists, deepObject, lists of objects as JSON with a `oneOf` inside), JSON Patch
 * bodies, an object field in a multipart form, a required body without `type`, `oneOf` options
 * that overlap (in a response, in a request body) or differ only by their discriminator,
 * readOnly/writeOnly properties in `required`, a GET with a body. `contract --spec` against its own mock passes with the faults as warnings; a
 * target that ignores `Prefer: operation=` (any real server) answers as a sibling, and that is the
 * description's ambiguity (a warning), never a failure.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from 'dataapi/runtime/mock';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { failedOf, KEY, ROOT, reportDir, runCli } from './harness.ts';
import { startProxy } from './proxy.ts';

const SPEC = path.join(ROOT, 'test/fixtures/odd/classes.yaml');

const codesOf = (run: Awaited<ReturnType<typeof runCli>>) =>
  new Set((run.result?.warnings ?? []).map((w) => `${w.code} ${w.operation ?? ''}`.trim()));

describe('contract --spec on the classes of problem', () => {
  it('passes against its own mock; the description faults are warnings', async () => {
    const run = await runCli(
      'contract',
      ['--spec', SPEC, '--report-dir', reportDir('classes')],
      'spec-classes',
    );
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(run.result?.errors, tail).toEqual([]);
    expect(run.code, tail).toBe(0);
    expect(run.result!.summary.passed).toBeGreaterThan(40);
    const codes = codesOf(run);
    expect(codes).toContain('ambiguous-one-of getSource');
    expect(codes).toContain('operation-shared-route putItemAddLink');
    expect(codes).toContain('unsatisfiable-schema postAnything');
    expect(codes).toContain('operation-body-on-get getReports');
    // Every operation's valid request got its success status (styles, patch, multipart decoded).
    for (const op of [
      'search',
      'putItemPatch',
      'upload',
      'putItemAddLink',
      'patchPet',
      'postAccount',
      'getReports',
    ])
      expect(
        run.result!.results.find((r) => r.operation === op && r.check === 'status')?.status,
        op,
      ).toBe('passed');
  }, 300_000);

  describe('a target that ignores Prefer: operation=', () => {
    let mock: FastifyInstance;
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    beforeAll(async () => {
      mock = await createMock(normalise(await loadSpec(SPEC)), {
        appkeys: [KEY],
        logger: false,
        invalidExamples: 'skip',
      });
      const upstream = await mock.listen({ port: 0, host: '127.0.0.1' });
      const forget = (req: { headers: Record<string, string> }) => {
        delete req.headers['prefer'];
        return req as never;
      };
      proxy = await startProxy(upstream, [{ path: '/items', request: forget }]);
    });
    afterAll(async () => {
      await proxy?.close();
      await mock?.close();
    });

    it('answers as a sibling: an operation-shared-route warning, not a failure', async () => {
      const run = await runCli(
        'contract',
        ['--spec', SPEC, '--base-url', proxy.url, '--allow-writes', '--only', 'putItemAddLink'],
        'spec-classes-proxy',
      );
      const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
      expect(failedOf(run), tail).toEqual([]);
      expect(run.code, tail).toBe(0);
      // The run's own blame (the normaliser's finding of the shared route has the same code).
      const shared = run.result!.warnings.filter(
        (w) => w.code === 'operation-shared-route' && w.message.includes('is shared with'),
      );
      expect(shared.length, tail).toBeGreaterThan(0);
      expect(shared[0]!.message).toContain('putItem');
      expect(shared[0]!.pointer).toBe('/paths/~1items~1{id}#add_link/put');
    }, 300_000);
  });
});
