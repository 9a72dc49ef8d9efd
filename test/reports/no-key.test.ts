/**
 * No report ever contains the key: `dataapi contract` runs (a child process, as QA runs it) with
 * DATAAPI_APPKEY set to a distinctive value against a real server on 127.0.0.1 that echoes the key
 * back in response bodies, headers and error texts, with every reporter on; then the key is searched
 * for, in each of its encodings, in every file of the report directory and in the output.
 */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeWork, workDir } from '../work.ts';
import { ROOT } from './fixture.ts';

const KEY = 'echo-sentinel-KEY.7f3a9c';
const FORMS = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), 'sentinel-KEY'];

/** A deployment that leaks the key everywhere it can: a worst case for the reports. */
async function echoServer(): Promise<FastifyInstance> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/*', async (req, reply) => {
    const url = new URL(req.url, 'http://echo');
    const key =
      url.searchParams.get('appkey') ??
      (req.headers['x-service-appkey'] as string | undefined) ??
      /"appkey"\s*:\s*"([^"]*)"/.exec(String(req.body ?? ''))?.[1];
    const seen = key ?? 'none';
    reply.header('x-echo-key', seen).header('x-echo-auth', Buffer.from(seen).toString('base64'));
    if (!key)
      return reply
        .code(401)
        .type('text/plain')
        .send(`no key on ${req.url}; the last key seen was ${KEY}`);
    if (req.method !== 'GET' && !req.url.includes('exam') && !req.url.includes('articles'))
      return reply.code(500).type('text/plain').send(`internal error for key ${key}`);
    return {
      DataStatus: { StatusCode: 100, StatusDescription: `ok for key ${key}`, Key: key },
      Data: [{ City: key, echo: { url: req.url, headers: req.headers, body: req.body } }],
    };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

function runContract(args: string[]): Promise<{ code: number; out: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST')
      env[k] = v;
  Object.assign(env, { DATAAPI_APPKEY: KEY, FORCE_COLOR: '0', NO_COLOR: '1' });
  const child = spawn(process.execPath, ['bin/dataapi.js', 'contract', ...args], {
    cwd: ROOT,
    env,
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, out })));
}

describe('the key in reports of a target that echoes it', () => {
  let app: FastifyInstance;
  let run: { code: number; out: string };
  const dir = workDir('reports-no-key');

  beforeAll(async () => {
    app = await echoServer();
    const { port } = app.server.address() as { port: number };
    run = await runContract([
      '--base-url',
      `http://127.0.0.1:${port}`,
      // The three key transports: query, header, JSON body.
      '--only',
      'getAirQuality,compareExamQuestions,extractArticle',
      '--reporter',
      // vitest's own `default` reporter prints each failure's message: it must be clean too.
      'console,default,junit,json,html,vitest-junit,vitest-json',
      '--report-dir',
      dir,
    ]);
  });
  afterAll(async () => {
    await app?.close();
    removeWork(dir);
  });

  it('the run failed for the reasons the echo caused, and wrote every report', async () => {
    expect(run.code, run.out.slice(-3000)).toBe(1);
    expect((await readdir(dir)).sort()).toEqual([
      'contract-junit.xml',
      'contract-report.html',
      // One JSON file: the results file is the JSON report.
      'contract-results.json',
      'vitest-junit.xml',
      'vitest-results.json',
    ]);
    const json = JSON.parse(await readFile(path.join(dir, 'contract-results.json'), 'utf8'));
    expect(json.summary.failed, JSON.stringify(json.errors)).toBeGreaterThan(0);
    // The echoed key reached the reports as text, and was redacted there.
    expect(JSON.stringify(json)).toContain('***');
  });

  it('appears in no report file and not in the output', async () => {
    const leaks: string[] = [];
    for (const f of await readdir(dir)) {
      const text = await readFile(path.join(dir, f), 'utf8');
      for (const form of FORMS) if (text.includes(form)) leaks.push(`${form} in ${f}`);
    }
    for (const form of FORMS) if (run.out.includes(form)) leaks.push(`${form} in the output`);
    expect(leaks).toEqual([]);
  });
});
