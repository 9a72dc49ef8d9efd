/**
 * Helpers of the corpus-class tests: a fixture of test/fixtures/corpus-classes loaded as a user's
 * command would load it, its mock listening on 127.0.0.1 (an ephemeral port), and the line of a
 * fixture's text (so that an expected location reads as what the author wrote, not a number).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { createMock, type MockOptions } from 'dataapi/runtime/mock';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { failedOf, reportDir, runCli, type CliRun } from '../contract/harness.ts';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = 'test/fixtures/corpus-classes';

/** A fixture's path as the loader shows it (relative to the project, as given on a command line). */
export const fixture = (name: string) => path.join(FIXTURES, name);

/** The 1-based lines of `file` that hold `text`. */
export function linesOf(file: string, text: string): number[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const found = lines.flatMap((l, i) => (l.includes(text) ? [i + 1] : []));
  if (found.length === 0) throw new Error(`${file} has no line with ${JSON.stringify(text)}`);
  return found;
}

/** The first line of `file` that holds `text`. */
export const lineOf = (file: string, text: string): number => linesOf(file, text)[0] as number;

export async function modelOf(name: string): Promise<ServiceModel> {
  return normalise(await loadSpec(fixture(name)));
}

export interface Served {
  model: ServiceModel;
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** The fixture's mock, listening for real. */
export async function serve(name: string, options: MockOptions = {}): Promise<Served> {
  const model = await modelOf(name);
  // No rate limits: a test sends more requests than a description's limits allow.
  const app = await createMock(model, {
    appkeys: ['corpus-key'],
    logger: false,
    rateLimit: false,
    ...options,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { model, app, url, close: () => app.close() };
}

/** Sends JSON (or nothing) and reads the answer as JSON when it is. */
export async function send(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/**
 * The fixture's mock and its server stubs (an echo per operation), both listening for the test
 * file's life: registered as the file's beforeAll/afterAll, so call it at the top level.
 */
export function serveBoth(name: string): { mock: Served; server: ServedFixture } {
  const both = {} as { mock: Served; server: ServedFixture };
  beforeAll(async () => {
    both.mock = await serve(name);
    both.server = await serveFixture(both.mock.model);
  });
  afterAll(async () => {
    await both.mock?.close();
    await both.server?.close();
  });
  return both;
}

/**
 * `dataapi contract --spec <file>` against its own mock (the command's embedded one), with three
 * fuzz cases when asked: the run, and the tail of its output for the assertions' messages.
 */
export async function ownSuite(
  file: string,
  options: { fuzz?: boolean; seed?: number } = {},
): Promise<{ run: CliRun; tail: string }> {
  const name = path.basename(file).replace(/\.(ya?ml|json)$/, '');
  const fuzz = options.fuzz ? ['--fuzz', '3', '--seed', String(options.seed ?? 48)] : [];
  const run = await runCli(
    'contract',
    ['--spec', file, ...fuzz, '--report-dir', reportDir(name)],
    `corpus-${name}`,
  );
  return { run, tail: run.stdout.slice(-3000) + run.stderr.slice(-2000) };
}

/** The suite passed: no check failed, no toolkit fault or error, exit code 0. */
export function expectPassed(run: CliRun, tail: string): void {
  expect(failedOf(run), tail).toEqual([]);
  expect(run.result?.summary.toolkitFaults, tail).toBe(0);
  expect(run.result?.errors, tail).toEqual([]);
  expect(run.code, tail).toBe(0);
}
