/**
 * The generated server stubs: typed handlers loaded from handler files, registered with
 * registerService on a plain Fastify instance; and the same stubs for a third-party description
 * (petstore from @readme/oas-examples) generated, type-checked and serving a request.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvelope } from 'dataapi/runtime/shared';
import { generate } from '../../generator/generate.ts';
import { loadHandlers, model, registerService } from '../../generated/server/index.ts';
import { removeWork, workDir } from '../work.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const op = (id: string) => model.operations.find((o) => o.id === id)!;

describe('generated stubs with handler files', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = Fastify();
    await registerService(app, {
      handlers: await loadHandlers(path.join(here, 'fixtures/handlers'), model),
      verifyKey: (key) =>
        key === 'good' ? true : key === 'old' ? 'expired' : key === 'poor' ? 'quota' : false,
      rateLimit: false,
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('wraps the payload in the envelope with the group success code and total count', async () => {
    const res = await fetch(`${url}/Weather/AirQuality?appkey=good&city=Beijing`);
    expect(res.status).toBe(200);
    const reading = readEnvelope(op('getAirQuality'), await res.json());
    expect(reading.code).toBe(100);
    expect(reading.totalCount).toBe(1);
    expect((reading.payload as { City: string }[])[0]?.City).toBe('Beijing');
    const many = readEnvelope(
      op('getAirQuality'),
      await (await fetch(`${url}/Weather/AirQuality?appkey=good&city=many`)).json(),
    );
    expect(many.totalCount).toBe(40);
  });

  it('the preview variant uses the same handler without a key', async () => {
    const res = await fetch(`${url}/Weather/AirQuality/demo?location=Shanghai`);
    expect(res.status).toBe(200);
    expect(
      (readEnvelope(op('getAirQuality'), await res.json()).payload as { City: string }[])[0]?.City,
    ).toBe('Shanghai');
  });

  it('verifier verdicts map to 401/403 with the group codes', async () => {
    const wrong = await fetch(`${url}/Weather/AirQuality?appkey=bad&city=x`);
    expect(wrong.status).toBe(401);
    expect(readEnvelope(op('getAirQuality'), await wrong.json()).code).toBe(104);
    const expired = await fetch(`${url}/ai/admission/predict?appkey=old`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(expired.status).toBe(403);
    expect(readEnvelope(op('predictAdmission'), await expired.json()).code).toBe(503);
    const quota = await fetch(`${url}/ai/admission/predict?appkey=poor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(quota.status).toBe(403);
    expect(readEnvelope(op('predictAdmission'), await quota.json()).code).toBe(505);
  });

  it('an operation without a handler is 501; a failing handler is a 500 that leaks nothing', async () => {
    const missing = await fetch(`${url}/v2/location/ip?appkey=good&ip=1.1.1.1`);
    expect(missing.status).toBe(501);
    const failing = await fetch(`${url}/metadata/global-university-ranking?appkey=good`);
    expect(failing.status).toBe(500);
    const text = await failing.text();
    expect(text).not.toContain('hunter2');
    expect(readEnvelope(op('getGlobalUniversityRanking'), JSON.parse(text)).code).toBe(110);
  });
});

describe('servicePlugin', () => {
  it('registers the same routes through app.register', async () => {
    const { servicePlugin } = await import('../../generated/server/index.ts');
    const app = Fastify();
    try {
      await app.register(servicePlugin, {
        handlers: await loadHandlers(path.join(here, 'fixtures/handlers'), model),
        insecureAnyKey: true,
        rateLimit: false,
      });
      const res = await app.inject({ url: '/Weather/AirQuality/demo?city=Xi%27an' });
      expect(res.statusCode).toBe(200);
      expect(
        (readEnvelope(op('getAirQuality'), res.json()).payload as { City: string }[])[0]?.City,
      ).toBe("Xi'an");
      expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/Weather/AirQuality', method: 'POST' })).statusCode).toBe(
        405,
      );
    } finally {
      await app.close();
    }
  });
});

describe('a third-party description (petstore 3.0)', () => {
  const spec = path.join(root, 'node_modules/@readme/oas-examples/3.0/json/petstore.json');
  // Inside the project, so that the generated stubs' `dataapi/...` imports resolve.
  const out = workDir('server-stubs-petstore');
  afterAll(() => removeWork(out));

  it('generates stubs that type-check and serve a request', async () => {
    await generate({ spec, out, kinds: ['server', 'mock'], typecheck: false });
    await writeFile(
      path.join(out, 'handlers.ts'),
      `import type { Handlers } from './server/index.ts';
export const getPetById: Handlers['getPetById'] = async (input) => ({ id: input.path.petId, name: 'Rex', photoUrls: [] });
export const findPetsByStatus: Handlers['findPetsByStatus'] = async () => [];
`,
    );
    await writeFile(
      path.join(out, 'tsconfig.json'),
      // The runtime through its declaration files (dist/), as another project reads it: its
      // sources are type-checked by `npm test`'s tsc, not again here.
      JSON.stringify({
        extends: path.relative(out, path.join(root, 'tsconfig.json')).split(path.sep).join('/'),
        compilerOptions: { customConditions: [] },
        include: ['**/*.ts'],
        exclude: [], // the project's `**/.tmp-*` would exclude the run's own folder
      }),
    );
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    await promisify(execFile)(
      process.execPath,
      [tsc, '--noEmit', '-p', path.join(out, 'tsconfig.json')],
      { cwd: root },
    );

    const server = (await import(
      pathToFileURL(path.join(out, 'server/index.ts')).href
    )) as typeof import('../../generated/server/index.ts');
    const handlers = (await import(pathToFileURL(path.join(out, 'handlers.ts')).href)) as Record<
      string,
      unknown
    >;
    const pet = Fastify();
    try {
      await server.registerService(pet, {
        handlers: handlers as never,
        insecureAnyKey: true,
        rateLimit: false,
      });
      const base = await pet.listen({ port: 0, host: '127.0.0.1' });
      const ok = await fetch(`${base}/pet/7`, { headers: { api_key: 'any' } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ id: 7, name: 'Rex', photoUrls: [] });
      expect((await fetch(`${base}/pet/seven`, { headers: { api_key: 'any' } })).status).toBe(400);
      expect((await fetch(`${base}/pet/7`)).status).toBe(401);
      expect((await fetch(`${base}/pet/7`, { method: 'PATCH' })).status).toBe(405);
    } finally {
      await pet.close();
    }
  });
});
