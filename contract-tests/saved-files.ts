/**
 * Writes the saved tests of --save-failures (saved.ts): one vitest file per failed check that
 * kept its request, `<operation>.<check>[.preview].test.ts`, and the model they judge with
 * (`model.json`), formatted with prettier (the project's settings for that folder). A lifecycle
 * failure spans several requests and is not saved; the report still has it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { toFileStem, type ServiceModel } from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import type { CheckResult, ContractRunResult } from './results.ts';
import type { SavedFailure } from './saved.ts';

/** Where a saved test sends to without DATAAPI_BASE_URL after a run on the embedded mock. */
export const MOCK_DEFAULT_URL = 'http://127.0.0.1:4010';

export async function writeSavedFailures(
  result: ContractRunResult,
  o: { dir: string; model: ServiceModel; redactor: Redactor },
): Promise<string[]> {
  const failed = result.results.filter(
    (r) => r.status === 'failed' && r.saved && r.check !== 'lifecycle',
  );
  if (failed.length === 0) return [];
  await mkdir(o.dir, { recursive: true });
  const baseUrl = result.target.embeddedMock
    ? MOCK_DEFAULT_URL
    : o.redactor.url(result.target.baseUrl);
  const written: string[] = [];
  await write(path.join(o.dir, 'model.json'), `${JSON.stringify(o.model, null, 2)}\n`, 'json');
  for (const r of failed) {
    const name = `${toFileStem(r.operation, 'operation')}.${r.check}${r.variant === 'preview' ? '.preview' : ''}.test.ts`;
    const file = path.join(o.dir, name);
    await write(file, testText(r, baseUrl), 'typescript');
    written.push(file);
  }
  return written;
}

async function write(file: string, text: string, parser: string): Promise<void> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(file, await prettier.format(text, { ...options, filepath: file, parser }));
}

/** The test's text: every value from the run goes in as JSON, never as code or comment text. */
function testText(r: CheckResult, baseUrl: string): string {
  const failure: SavedFailure & { was: { expected?: string; actual?: string } } = {
    operation: r.operation,
    variant: r.variant,
    check: r.check,
    request: r.saved!,
    was: {
      ...(r.expected !== undefined ? { expected: r.expected } : {}),
      ...(r.actual !== undefined ? { actual: r.actual } : {}),
    },
  };
  const title = `${r.check} (${r.variant}) of ${r.operation}: ${r.message}`;
  return `/**
 * Saved by \`dataapi contract --save-failures\`: a request that failed a check, sent again with
 * fetch and judged by the same check. The target is DATAAPI_BASE_URL (default: the run's), the
 * key DATAAPI_APPKEY (it is never written here). \`failure.was\` is what the run got.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { filledRequest, judgeSaved, type SavedFailure } from 'dataapi/contract';

const BASE_URL = (process.env.DATAAPI_BASE_URL ?? ${JSON.stringify(baseUrl)}).replace(/\\/+$/, '');
const failure: SavedFailure & { was: { expected?: string; actual?: string } } = ${JSON.stringify(failure)};

it(${JSON.stringify(title)}, async () => {
  const model = JSON.parse(readFileSync(new URL('./model.json', import.meta.url), 'utf8'));
  const { path, init } = filledRequest(failure.request, process.env.DATAAPI_APPKEY ?? '');
  const res = await fetch(\`\${BASE_URL}\${path}\`, { ...init, redirect: 'manual' });
  expect(await judgeSaved(model, failure, res)).toEqual([]);
});
`;
}
