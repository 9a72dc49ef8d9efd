/**
 * The configuration file and `--spec URL`, through the built command line in a folder of its own:
 * flags win over the file, the file over the defaults; a bad file is exit 2 naming the setting; a
 * description served over HTTP (a real Fastify server on 127.0.0.1) generates as a file does, and
 * an unreachable one is exit 2 with the reason and nothing written.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run } from '../pack/helpers.ts';

const MUSEUM = path.join(ROOT, 'test/fixtures/third-party/museum.yaml');
const BIN = path.join(ROOT, 'bin/dataapi.js');
const RECHECK = path.join(ROOT, 'test/fixtures/recheck/recheck.yaml');
let dir: string;
let server: FastifyInstance;
let base: string;

const dataapi = (args: string[], cwd = dir, env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, [BIN, ...args], cwd, { DATAAPI_APPKEY: '', ...env });
/** A contract run's suite on one vitest worker: two small files need no second copy of the toolkit. */
const ONE_WORKER = { VITEST_MAX_WORKERS: '1' };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dataapi-config-'));
  await copyFile(MUSEUM, path.join(dir, 'museum.yaml'));
  const text = await readFile(MUSEUM, 'utf8');
  server = Fastify();
  server.get('/specs/museum.yaml', async (_req, reply) =>
    reply.type('application/yaml').send(text),
  );
  // Split descriptions, file by file, as a static host serves them (a token required).
  server.get('/split/*', async (req, reply) => {
    const url = new URL(req.url, 'http://x');
    if (url.searchParams.get('token') !== 't0k') return reply.code(401).send();
    const rel = decodeURIComponent(url.pathname.slice('/split/'.length));
    const file = path.join(ROOT, 'test/fixtures', rel);
    if (!file.startsWith(path.join(ROOT, 'test/fixtures') + path.sep) || !existsSync(file))
      return reply.code(404).send();
    return reply.type('application/yaml').send(await readFile(file, 'utf8'));
  });
  base = await server.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('dataapi.config.*', () => {
  it('gives generate its spec and output; a flag wins over it', async () => {
    await writeFile(
      path.join(dir, 'dataapi.config.json'),
      JSON.stringify({ spec: 'museum.yaml', output: 'api', generate: { kinds: ['client'] } }),
    );
    // The type-check of the tree (typecheck-tree.test.ts) is not what these runs are about.
    const first = await dataapi(['generate', '--no-typecheck']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/8 operations/);
    expect(existsSync(path.join(dir, 'api/client/index.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'api/server'))).toBe(false); // kinds came from the file
    const flagged = await dataapi([
      'generate',
      '--no-typecheck',
      '--out',
      'elsewhere',
      '--kinds',
      'mock',
    ]);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'elsewhere/mock/index.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'elsewhere/client'))).toBe(false);
  });

  it('refuses an unknown setting or option with the closest one, exit 2', async () => {
    await writeFile(path.join(dir, 'dataapi.config.json'), JSON.stringify({ spc: 'museum.yaml' }));
    const top = await dataapi(['lint']);
    expect(top.code).toBe(2);
    expect(top.stderr).toMatch(/dataapi\.config\.json: unknown setting "spc".*spec/);
    await writeFile(
      path.join(dir, 'dataapi.config.json'),
      JSON.stringify({ spec: 'museum.yaml', contract: { reportDirectory: 'r' } }),
    );
    const option = await dataapi(['contract']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(
      /contract\.reportDirectory is not an option of `dataapi contract`/,
    );
    await writeFile(path.join(dir, 'dataapi.config.json'), '{ "spec": ');
    const broken = await dataapi(['lint']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/dataapi\.config\.json: not valid JSON/);
  });

  it('contract.checks and contract.excludeChecks choose the checks by name', async () => {
    await copyFile(RECHECK, path.join(dir, 'recheck.yaml'));
    await writeFile(
      path.join(dir, 'dataapi.config.json'),
      JSON.stringify({
        spec: 'recheck.yaml',
        contract: { checks: ['status', 'negative', 'schema'], excludeChecks: ['schema'] },
      }),
    );
    const results = path.join(dir, 'checks.json');
    const chosen = await dataapi(['contract', '--results', results], dir, ONE_WORKER);
    expect(chosen.code, chosen.stderr).toBe(0);
    const ran = (JSON.parse(await readFile(results, 'utf8')) as { results: { check: string }[] })
      .results;
    expect([...new Set(ran.map((r) => r.check))].sort()).toEqual(['negative', 'status']);
    // A flag wins over the file (whose excludeChecks still holds).
    const flagged = await dataapi(
      ['contract', '--results', results, '--checks', 'paging,status'],
      dir,
      ONE_WORKER,
    );
    expect(flagged.code, flagged.stderr).toBe(0);
    const again = (JSON.parse(await readFile(results, 'utf8')) as { results: { check: string }[] })
      .results;
    expect([...new Set(again.map((r) => r.check))].sort()).toEqual(['paging', 'status']);
    await writeFile(
      path.join(dir, 'dataapi.config.json'),
      JSON.stringify({ spec: 'recheck.yaml', contract: { checks: ['statuss'] } }),
    );
    const typo = await dataapi(['contract']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--checks: unknown check "statuss" \(did you mean "status"\?\)/);
  });

  it('reads an ES module configuration, and --config names another file', async () => {
    await rm(path.join(dir, 'dataapi.config.json'));
    await writeFile(
      path.join(dir, 'other.config.mjs'),
      "export default { spec: 'museum.yaml', lint: { format: 'json' } };\n",
    );
    const lint = await dataapi(['lint', '--config', 'other.config.mjs']);
    // Museum is not in the service's conventions: the generic rules only, and it breaks none.
    expect(lint.code, lint.stderr).toBe(0);
    // The file's lint.format took: JSON, not text.
    expect(JSON.parse(lint.stdout)).toMatchObject({ findings: [], operations: 8 });
  });

  it("reads a path setting from the file's folder, a path flag from the working folder", async () => {
    const sub = await mkdtemp(path.join(dir, 'paths-'));
    await copyFile(MUSEUM, path.join(sub, 'museum.yaml'));
    await writeFile(
      path.join(sub, 'dataapi.config.json'),
      JSON.stringify({ spec: 'museum.yaml', lint: { format: 'json', output: 'lint.json' } }),
    );
    const config = path.join(path.basename(sub), 'dataapi.config.json');
    const fromFile = await dataapi(['lint', '--config', config]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(sub, 'lint.json'), 'utf8'))).toMatchObject({
      operations: 8,
    });
    const fromFlag = await dataapi(['lint', '--config', config, '--output', 'flag-lint.json']);
    expect(fromFlag.code, fromFlag.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'flag-lint.json'))).toBe(true);
    expect(existsSync(path.join(sub, 'flag-lint.json'))).toBe(false);
  });

  it('init writes one and will not replace it without --force', async () => {
    const sub = await mkdtemp(path.join(dir, 'init-'));
    await copyFile(MUSEUM, path.join(sub, 'openapi.yaml'));
    const first = await dataapi(['init', '--format', 'json'], sub);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(await readFile(path.join(sub, 'dataapi.config.json'), 'utf8'))).toMatchObject(
      { spec: 'openapi.yaml', output: 'generated' },
    );
    const again = await dataapi(['init', '--format', 'json'], sub);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists: pass --force/);
  });
});

describe('--spec URL', () => {
  it('generates from a description served over HTTP', async () => {
    const out = path.join(dir, 'from-url');
    const r = await dataapi([
      'generate',
      '--no-typecheck',
      '--spec',
      `${base}/specs/museum.yaml`,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(out, 'model.json'))).toBe(true);
  });

  it('fetches every file of a description split over several, as a local one reads', async () => {
    const out = path.join(dir, 'from-split-url');
    const url = `${base}/split/generator-split/openapi.yaml?token=t0k`;
    // The model is what is compared: the type-check of the trees is typecheck-tree.test.ts's.
    const r = await dataapi(['generate', '--no-typecheck', '--spec', url, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8'));
    const localOut = path.join(dir, 'split-local');
    const spec = path.join(ROOT, 'test/fixtures/generator-split/openapi.yaml');
    const made = await dataapi(['generate', '--no-typecheck', '--spec', spec, '--out', localOut]);
    expect(made.code, made.stderr).toBe(0);
    const local = JSON.parse(await readFile(path.join(localOut, 'model.json'), 'utf8'));
    expect(model.operations.map((o: { id: string }) => o.id)).toEqual(
      local.operations.map((o: { id: string }) => o.id),
    );
    expect(model.operations.length).toBeGreaterThan(1);
  });

  it('a $ref into a file missing on the server names the referencing file by its URL', async () => {
    const url = `${base}/split/generator-load/split-bad/openapi.yaml?token=t0k`;
    const r = await dataapi(['lint', '--spec', url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /http:\/\/127\.0\.0\.1:\d+\/split\/generator-load\/split-bad\/paths\/pets\.yaml.*nowhere\.yaml/s,
    );
    expect(r.stderr).not.toMatch(/t0k|node_modules/);
  });

  it('an unreachable or missing one is exit 2 with the reason, and nothing is written', async () => {
    const out = path.join(dir, 'never');
    const missing = await dataapi(['generate', '--spec', `${base}/specs/none.yaml`, '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/specs\/none\.yaml: cannot fetch the description: HTTP 404/);
    // A port that was just free: nothing listens there now.
    const gone = Fastify();
    const port = new URL(await gone.listen({ port: 0, host: '127.0.0.1' })).port;
    await gone.close();
    const closed = await dataapi([
      'lint',
      '--spec',
      `http://127.0.0.1:${port}/openapi.yaml?token=s3cret`,
    ]);
    expect(closed.code).toBe(2);
    expect(closed.stderr, closed.stderr).toMatch(/cannot fetch the description: ECONNREFUSED/);
    expect(closed.stderr).not.toMatch(/s3cret/);
    expect(existsSync(out)).toBe(false);
  });
});
