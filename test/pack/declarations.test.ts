/**
 * The runtime's declaration files (dist/, built by `npm run build`, which `npm ci` runs through
 * prepare, and by `npm test` before vitest, so that no test writes them while another reads them):
 * a program without the `dataapi-source` condition (any project but this one) reads
 * `dataapi/...` through them, so `skipLibCheck` skips the runtime's implementation, and the
 * generated output type-checks against them with its types intact.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTsconfig } from '../generator/helpers.ts';
import { ROOT, tscProjects } from './helpers.ts';

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

/** A copy of generated/ inside the project (so `dataapi/...` resolves through its exports). */
async function consumer(files: Record<string, string>): Promise<string> {
  await mkdir(path.join(ROOT, 'test/.work'), { recursive: true });
  const dir = await mkdtemp(path.join(ROOT, 'test/.work/declarations-'));
  made.push(dir);
  await cp(path.join(ROOT, 'generated'), dir, { recursive: true });
  // What another project sees: the package's `types` condition, not the sources.
  await writeTsconfig(dir, true);
  for (const [rel, text] of Object.entries(files)) await writeFile(path.join(dir, rel), text);
  return dir;
}

const GOOD_HANDLER = `import { respond, type Handlers } from './server/index.ts';
export const getAirQuality: Handlers['getAirQuality'] = async (input) => {
  const item = {
    City: input.query.location ?? input.query.city ?? 'unknown',
    LocationId: 'loc-1',
    Latitude: '39.9',
    Longitude: '116.4',
    AQI: '42',
    Quality: 'good',
    Pollutants: [{ Code: 'pm25', Name: 'PM2.5' }],
    Stations: [],
    RetrievedAt: '2025-03-18T10:15:32+08:00',
    DataStatus: 'fresh' as const,
  };
  return input.preview ? [item] : respond([item, item], { totalCount: 40 });
};
`;

const WRONG_HANDLER = `import type { Handlers } from './server/index.ts';
export const getAirQuality: Handlers['getAirQuality'] = async () => ({ City: 1 });
`;

/** A consumer whose tsconfig is the project's own with exactOptionalPropertyTypes on (tsc --init's). */
async function readmeConsumer(): Promise<string> {
  // `appkey: process.env.DATAAPI_APPKEY` is string | undefined: the options must take it (TS2379).
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const snippet = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => code.includes("from './generated/client/index.ts'"));
  if (snippet === undefined) throw new Error('README.md has no snippet importing the client');
  const dir = await consumer({
    'readme-client.ts': `${snippet.replace('./generated/client/', './client/')}\nexport {};\n`,
  });
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: path.relative(dir, path.join(ROOT, 'tsconfig.json')),
      compilerOptions: { customConditions: [], exactOptionalPropertyTypes: true },
      include: ['**/*.ts'],
      exclude: [],
    }),
  );
  return dir;
}

type Case = 'handlers' | 'readme';
let checked: Promise<{ dirs: Record<Case, string>; output: Map<string, string> }> | undefined;

/**
 * Two consumers checked by one tsc process (tsc -b: the declarations, the libraries and
 * TypeScript's lib files they both read are read once), by the first test that asks; each test
 * reads its project's output. The good and the wrong handler share a program (a copy of
 * generated/, checked once): the wrong one's errors name its file, so every other file's are
 * told apart. That program lists its files as well (listFiles).
 */
async function checkAll() {
  const handlers = await consumer({
    'handlers.ts': GOOD_HANDLER,
    'wrong-handlers.ts': WRONG_HANDLER,
  });
  const config = path.join(handlers, 'tsconfig.json');
  const json = JSON.parse(await readFile(config, 'utf8')) as { compilerOptions?: object };
  json.compilerOptions = { ...json.compilerOptions, listFiles: true };
  await writeFile(config, JSON.stringify(json));
  const dirs = { handlers, readme: await readmeConsumer() };
  const configs = Object.values(dirs).map((dir) => path.join(dir, 'tsconfig.json'));
  return { dirs, output: (await tscProjects(configs)).output };
}

async function outputOf(which: Case): Promise<string[]> {
  const { dirs, output } = await (checked ??= checkAll());
  const text = output.get(path.join(dirs[which], 'tsconfig.json'))!;
  return text === '' ? [] : text.split('\n');
}

/** The diagnostics of the handlers' program (listFiles' absolute paths left out), by file. */
async function handlerDiagnostics(): Promise<{ wrong: string[]; others: string[] }> {
  const lines = (await outputOf('handlers')).filter((l) => !path.isAbsolute(l));
  const wrong: string[] = [];
  const others: string[] = [];
  let inWrong = false;
  for (const line of lines) {
    // An indented line goes on with the diagnostic above it.
    if (!/^\s/.test(line)) inWrong = line.startsWith('wrong-handlers.ts(');
    (inWrong ? wrong : others).push(line);
  }
  return { wrong, others };
}

describe('declaration files of the runtime', () => {
  // `npm test` builds them (`npm run build`) before vitest runs, as `npm ci` does.
  it('are what generated code type-checks against, without the sources', async () => {
    const lines = await outputOf('handlers');
    // listFiles prints absolute paths; anything else is a diagnostic.
    const files = lines.filter((l) => path.isAbsolute(l)).map((f) => path.relative(ROOT, f));
    expect(files).toContain('dist/runtime/server/index.d.ts');
    expect(files).toContain('dist/contract-tests/index.d.ts');
    // No source of the runtime is in the program: none is checked with the consumer's code.
    expect(files.filter((f) => /^(runtime|model|contract-tests)\//.test(f))).toEqual([]);
    // No diagnostic but the wrong handler's (next test): the good one and generated/ check clean.
    expect((await handlerDiagnostics()).others).toEqual([]);
  });

  it('keep the types: a handler returning the wrong payload is a compile error', async () => {
    const { wrong } = await handlerDiagnostics();
    expect(wrong.join('\n')).toMatch(/^wrong-handlers\.ts\(2,\d+\): error TS2322/);
  });

  it("compile the README's client snippet as written under tsc --init's exactOptionalPropertyTypes", async () => {
    expect(await outputOf('readme')).toEqual([]);
  });
});
