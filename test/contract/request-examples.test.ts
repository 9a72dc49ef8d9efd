/**
 * Request examples are checked before they are sent as valid requests, whatever the body's kind
 * (issue 26, class 8): a form example the schema refuses (an enum, `format: uri`) becomes a
 * description warning and is not sent; a valid one (fields as text, coerced as a server does) is.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { requestWarnings, validRequests } from '../../contract-tests/requests.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

it('does not send a form example its schema refuses, and warns about it', async () => {
  const model = normalise(await loadSpec(path.join(FIXTURES, 'generality/form-example.yaml')));
  const op = model.operations[0]!;
  expect(validRequests(model, op).map((r) => r.name)).toEqual(['example "fine"']);
  const warnings = requestWarnings(model, op);
  expect(warnings.map((w) => [w.code, w.pointer])).toEqual([
    [
      'example-invalid',
      '/paths/~1hooks/post/requestBody/content/application~1x-www-form-urlencoded/examples/broken',
    ],
  ]);
  expect(warnings[0]?.message).toMatch(/url must match format "uri"|event must be equal to one of/);
});
