/**
 * The four producers of `example-invalid` (lint, the mock's catalogue, the suite's response
 * warnings and the request builder) name the same invalid examples of one description, one in a
 * parameter, a request body and a response: model/example-verdict.ts decides for all of them
 * (issue 47). Each still says it in its own report's words and pointer spelling, so the places
 * are compared once the spellings are made one (a parameter's list, an example's `value`).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Finding } from 'dataapi/model';
import { createMock } from 'dataapi/runtime/mock';
import { responseExampleWarnings } from '../../contract-tests/example-warnings.ts';
import { requestWarnings, validRequests } from '../../contract-tests/requests.ts';
import { loadSpec } from '../../generator/load.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

const spec = path.join(FIXTURES, 'generality/example-agreement.yaml');
const base = '/paths/~1notes/post';
const PARAMETER = `${base}/parameters`;
const BODY = `${base}/requestBody/content/application~1json/examples/broken`;
const RESPONSE = `${base}/responses/201/content/application~1json/examples/broken`;

/** One spelling of a place: lint names the parameter's own `example` and an example's `value`. */
const place = (pointer: string | undefined) =>
  (pointer ?? '').replace(/\/parameters\/\d+\/example$/, '/parameters').replace(/\/value$/, '');

const invalid = (list: readonly { code: string; pointer?: string }[]) =>
  list
    .filter((f) => f.code === 'example-invalid')
    .map((f) => place(f.pointer))
    .sort();

it('lint, the mock, the response warnings and the request builder name the same invalid examples', async () => {
  const model = normalise(await loadSpec(spec));
  const op = model.operations[0]!;

  const linted = invalid((await lintSpec(spec)).findings);
  const suite = invalid([...requestWarnings(model, op), ...responseExampleWarnings(model, op)]);
  const mocked: Finding[] = [];
  const app = await createMock(model, { rateLimit: false, onFinding: (f) => mocked.push(f) });
  await app.close();

  expect(linted).toEqual([PARAMETER, BODY, RESPONSE].sort());
  expect(suite).toEqual(linted);
  // The mock answers responses only: it judges the response examples, as the others do.
  expect(invalid(mocked)).toEqual(linted.filter((p) => p.includes('/responses/')));
  // What each does with them: the valid body example is sent, the broken one is not.
  expect(validRequests(model, op).map((r) => r.name)).toEqual(['example "fine"']);
  expect(validRequests(model, op)[0]?.query).toEqual({ limit: expect.any(Number), tag: 'a' });
  expect(validRequests(model, op)[0]?.query['limit']).toBeLessThanOrEqual(10);
});
