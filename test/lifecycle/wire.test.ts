/**
 * A deprecated operation on the wire: `serve` and the mock answer it with Deprecation, Sunset and
 * the successor Link (and the live operation with none), and the registered contract check passes
 * against the mock and fails against a real Fastify server that drops them (and sends one where
 * it does not belong).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { createMock } from 'dataapi/runtime/mock';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { find, runCli } from '../contract/harness.ts';
import { startServe, type ServeProcess } from '../serve/helpers.ts';
import { removeWork, workDir } from '../work.ts';
import { NEWS, root } from './helpers.ts';

const EXPECTED = {
  deprecation: `@${Date.UTC(2026, 0, 15) / 1000}`,
  sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
  link: '</v2/news>; rel="successor-version"; title="listNewsV2"',
};

async function lifecycleHeaders(url: string, pathAndQuery: string) {
  const res = await fetch(`${url}${pathAndQuery}`);
  await res.arrayBuffer();
  return {
    status: res.status,
    deprecation: res.headers.get('deprecation'),
    sunset: res.headers.get('sunset'),
    link: res.headers.get('link'),
  };
}

let model: ServiceModel;
beforeAll(async () => {
  model = normalise(await loadSpec(NEWS));
});

describe('the mock', () => {
  let close: () => Promise<unknown>;
  let url: string;
  beforeAll(async () => {
    const app = await createMock(model);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  afterAll(() => close?.());

  it('answers the deprecated operation with Deprecation, Sunset and Link, errors included', async () => {
    expect(await lifecycleHeaders(url, '/v1/news?topic=energy')).toEqual({
      status: 200,
      ...EXPECTED,
    });
    // A refused request (a scenario the mock answers with 429) says so as well.
    const res = await fetch(`${url}/v1/news`, { headers: { prefer: 'code=429' } });
    await res.arrayBuffer();
    expect(res.status).toBe(429);
    expect(res.headers.get('deprecation')).toBe(EXPECTED.deprecation);
  });

  it('sends none of them for the live operation', async () => {
    expect(await lifecycleHeaders(url, '/v2/news')).toEqual({
      status: 200,
      deprecation: null,
      sunset: null,
      link: null,
    });
  });
});

describe('dataapi serve', () => {
  let serve: ServeProcess;
  let out: string;
  beforeAll(async () => {
    // Inside the project, so the generated code resolves dataapi/*.
    out = workDir('lifecycle-serve');
    const gen = spawnSync(
      process.execPath,
      // Without the type-check of the tree: what is tested is what serve answers.
      [
        'bin/dataapi.js',
        'generate',
        '--no-typecheck',
        '--spec',
        NEWS,
        '--out',
        out,
        '--kinds',
        'server',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(gen.status, gen.stderr).toBe(0);
    serve = await startServe([
      '--dir',
      out,
      '--example-handlers',
      '--no-docs',
      '--insecure-any-key',
    ]);
  });
  afterAll(async () => {
    await serve?.stop();
    if (out) removeWork(out);
  });

  it('answers the deprecated operation with both headers and the link, the live one without', async () => {
    expect(await lifecycleHeaders(serve.url, '/v1/news')).toEqual({ status: 200, ...EXPECTED });
    expect(await lifecycleHeaders(serve.url, '/v2/news')).toMatchObject({
      status: 200,
      deprecation: null,
      sunset: null,
    });
  });
});

describe('the deprecation contract check', () => {
  let close: () => Promise<unknown>;
  let url: string;
  beforeAll(async () => {
    // Conforms in everything the fixture describes but the life cycle: v1 drops its headers,
    // v2 claims a deprecation it does not have.
    const app = Fastify({ logger: false });
    const news = { items: [{ title: 'Charging network grows' }] };
    app.get('/v1/news', async () => news);
    app.get('/v2/news', async (_req, reply) => reply.header('deprecation', '@0').send(news));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  afterAll(() => close?.());

  it('passes against the mock', async () => {
    const run = await runCli('contract', ['--spec', NEWS], 'lifecycle-mock');
    for (const op of ['listNews', 'listNewsV2'])
      expect(find(run, op, 'deprecation'), run.stderr).toMatchObject({ status: 'passed' });
  });

  it('fails against a server that drops them, and one that sends them where they do not belong', async () => {
    const run = await runCli('contract', ['--spec', NEWS, '--base-url', url], 'lifecycle-bad');
    expect(run.code).toBe(1);
    const v1 = find(run, 'listNews', 'deprecation');
    expect(v1, run.stderr).toMatchObject({ status: 'failed', actual: 'no Deprecation header' });
    expect(v1!.errors.join('\n')).toContain('no Sunset header');
    expect(v1!.errors.join('\n')).toContain('no Link header');
    expect(find(run, 'listNewsV2', 'deprecation')).toMatchObject({
      status: 'failed',
      actual: 'Deprecation: @0',
    });
  });
});
