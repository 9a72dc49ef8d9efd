/**
 * The toolkit as another repository gets it: `npm pack` of this project installed into an empty
 * project on plain Node (no tsx: it is an optional peer), and there every command a user runs:
 * `init`, `generate` on a third-party description (through the configuration file), `tsc` over
 * the output under `nodenext` and `bundler`, a server file of the user's that serves the generated
 * stubs compiled by tsc and run by node, `mock`, `contract --base-url` against that mock,
 * `contract --spec`, `serve`, `lint`, `diff` and `pack client`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, run, tempDir, type Ran } from './helpers.ts';

const LONG = 900_000; // a safety net against a hung child, not a performance limit
const MUSEUM = path.join(ROOT, 'test/fixtures/third-party/museum.yaml');
let project: string;
const children: ChildProcess[] = [];

/** `npx dataapi ...` in the project, with nothing of this repository in the environment. */
function dataapi(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return run(
    process.execPath,
    [path.join(project, 'node_modules/dataapi/bin/dataapi.js'), ...args],
    project,
    {
      NODE_OPTIONS: '',
      DATAAPI_APPKEY: '',
      ...env,
    },
  );
}

/** Starts a long-running command and resolves with its address once it prints it. */
function listening(args: string[]): Promise<{ url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [path.join(project, 'node_modules/dataapi/bin/dataapi.js'), ...args],
    { cwd: project, env: { ...process.env, NODE_OPTIONS: '', DATAAPI_APPKEY: '' } },
  );
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += String(chunk);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve({ url: m[1]!, output: () => text });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${text}`)));
  });
}

beforeAll(async () => {
  const work = await tempDir('installed');
  project = path.join(work, 'project');
  await mkdir(project);
  // prepack builds dist/ (skipped when `npm test` has just built it).
  const packed = await run('npm', ['pack', ROOT, '--pack-destination', work, '--json'], work);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2),
  );
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, info!.filename)],
    project,
  );
  expect(installed.code, installed.stderr).toBe(0);
  await copyFile(MUSEUM, path.join(project, 'museum.yaml'));
}, LONG);

afterAll(async () => {
  await Promise.all(
    children
      .filter((c) => c.exitCode === null && c.signalCode === null)
      .map((c) => new Promise((done) => (c.once('exit', done), c.kill('SIGTERM')))),
  );
  if (project) await rm(path.dirname(project), { recursive: true, force: true, maxRetries: 5 });
});

describe('the packed toolkit in an empty project on plain Node', () => {
  it(
    'ships compiled JavaScript and no tests, fixtures, bench or sources; tsx is not installed',
    async () => {
      const pkg = path.join(project, 'node_modules/dataapi');
      expect(existsSync(path.join(pkg, 'dist/scripts/cli.js'))).toBe(true);
      expect(existsSync(path.join(pkg, 'dist/runtime/server/index.d.ts'))).toBe(true);
      for (const absent of ['test', 'bench', 'generated', 'spec', 'scripts', 'runtime', 'model'])
        expect(existsSync(path.join(pkg, absent)), absent).toBe(false);
      expect(existsSync(path.join(project, 'node_modules/tsx'))).toBe(false);
      // The kept meta-schema validator loads where the toolkit is installed (Ajv's runtime found
      // from there); without it every Ajv-using thread would compile the meta-schema again.
      const meta = createRequire(path.join(pkg, 'dist/model/validate.js'))(
        './meta-schema-2020.cjs',
      ) as (schema: unknown) => boolean;
      expect(meta({ type: 'string' })).toBe(true);
      expect(meta({ type: 'strin' })).toBe(false);
      const help = await dataapi(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/init\s+write a dataapi\.config/);
    },
    LONG,
  );

  it(
    'init writes a configuration that generate, tsc and a user server on node take up',
    async () => {
      const init = await dataapi(['init']);
      expect(init.code).toBe(2); // no description under a known name here
      expect(init.stderr).toMatch(/pass --spec/);
      const written = await dataapi(['init', '--spec', 'museum.yaml', '--output', 'src/api']);
      expect(written.code, written.stderr).toBe(0);
      expect(await readFile(path.join(project, 'dataapi.config.mjs'), 'utf8')).toMatch(
        /spec: ['"]museum\.yaml['"]/,
      );
      const generated = await dataapi(['generate']);
      expect(generated.code, generated.stderr).toBe(0);
      expect(existsSync(path.join(project, 'src/api/server/index.ts'))).toBe(true);

      await writeFile(
        path.join(project, 'server.ts'),
        `import Fastify from 'fastify';
import { registerService, type Handlers } from './src/api/server/index.js';

const handlers: Partial<Handlers> = {
  getMuseumHours: async () => [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }],
};
const app = Fastify();
await registerService(app, { handlers, insecureAnyKey: true });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const res = await fetch(url + '/museum-hours', { headers: { authorization: 'Basic dTpw' } });
process.stdout.write(res.status + ' ' + (await res.text()));
await app.close();
`,
      );
      // Under nodenext the toolkit's declarations and the user's dependencies are checked
      // (skipLibCheck off); TypeScript's own lib files are not the toolkit's (skipDefaultLibCheck:
      // 40% of a tsc run). Under bundler the user's files are checked, and so every `dataapi/...`
      // import they make resolves through the exports map there too; the declarations' own
      // imports are relative or of the same packages as under nodenext, so checking them and
      // @types/node a second time (8 of a run's 11.5 CPU-s) would find nothing new.
      const strict = {
        strict: true,
        skipDefaultLibCheck: true,
        target: 'ES2022',
        types: ['node'],
      };
      const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
      const configs: string[] = [];
      for (const [name, options] of [
        [
          'nodenext',
          { module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out', skipLibCheck: false },
        ],
        [
          'bundler',
          { module: 'esnext', moduleResolution: 'bundler', noEmit: true, skipLibCheck: true },
        ],
      ] as const) {
        configs.push(`tsconfig.${name}.json`);
        await writeFile(
          path.join(project, configs.at(-1)!),
          JSON.stringify({
            compilerOptions: { ...strict, ...options },
            include: ['src', 'server.ts'],
          }),
        );
      }
      // Both in one tsc process (tsc -b: the files both read are read once); --verbose names the
      // project before its diagnostics, and the exit code is not 0 when either has an error.
      const checked = await run(process.execPath, [tsc, '-b', '--verbose', ...configs], project);
      const output = checked.stdout + checked.stderr;
      expect(checked.code, output).toBe(0);
      expect(output).not.toMatch(/error TS\d+/);
      const served = await run(process.execPath, ['out/server.js'], project);
      expect(served.stderr).toBe('');
      expect(served.stdout).toBe(
        '200 [{"date":"2023-09-11","timeOpen":"09:00","timeClose":"18:00"}]',
      );
    },
    LONG,
  );

  it(
    'mock, contract against it, contract --spec, serve, lint, diff and pack client',
    async () => {
      const mock = await listening(['mock', '--port', '0']);
      const contract = await dataapi(
        ['contract', '--base-url', mock.url, '--reporter', 'console'],
        {
          DATAAPI_APPKEY: 'mock-appkey',
        },
      );
      expect(contract.code, contract.stdout + contract.stderr).toBe(0);
      expect(contract.stdout).toMatch(/Checks: \d+ passed, 0 failed/);

      const bySpec = await dataapi(['contract', '--spec', 'museum.yaml', '--reporter', 'console']);
      expect(bySpec.code, bySpec.stdout + bySpec.stderr).toBe(0);

      const serve = await listening([
        'serve',
        '--port',
        '0',
        '--insecure-any-key',
        '--example-handlers',
      ]);
      const answer = await fetch(`${serve.url}/museum-hours`, {
        headers: { authorization: 'Basic dTpw' },
      });
      expect(answer.status).toBe(200);

      // The catalogue's own rules are not museum's (it uses none of the service's conventions):
      // only the generic rules apply, and it breaks none.
      const lint = await dataapi(['lint']);
      expect(lint.code, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout).toMatch(/museum\.yaml: 8 operations, no problems/);

      const diff = await dataapi(['diff', '--base', 'museum.yaml']);
      expect(diff.code, diff.stderr).toBe(0);
      expect(diff.stdout).toMatch(/No changes to the contract/);

      const pack = await dataapi(['pack', 'client', '--out', 'client']);
      expect(pack.code, pack.stderr).toBe(0);
      expect(existsSync(path.join(project, 'client/dist/esm/index.js'))).toBe(true);
      expect(existsSync(path.join(project, 'client/dist/esm/index.d.ts'))).toBe(true);
    },
    LONG,
  );

  it(
    'a TypeScript handler without tsx: a clear message, exit 2',
    async () => {
      await mkdir(path.join(project, 'handlers'), { recursive: true });
      await writeFile(
        path.join(project, 'handlers/museum.ts'),
        `export const getMuseumHours = async (): Promise<unknown[]> => [];\n`,
      );
      const serve = await dataapi([
        'serve',
        '--port',
        '0',
        '--insecure-any-key',
        '--handlers',
        'handlers',
      ]);
      expect(serve.code).toBe(2);
      expect(serve.stderr).toMatch(/museum\.ts is TypeScript .*tsx/);
    },
    LONG,
  );
});
