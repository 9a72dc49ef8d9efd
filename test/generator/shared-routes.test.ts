/**
 * Operations that share a route are each a finding naming the others: at most eight of them
 * (ec2's 594 operations on `POST /` made 594 findings of 594 names each).
 */
import { expect, it } from 'vitest';
import { normalise } from '../../generator/normalise/index.ts';

it('names at most eight of the operations that share a route, and counts the rest', () => {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 12; i++)
    paths[`/#Action=Do${i}`] = {
      post: {
        operationId: `do${i}`,
        parameters: [{ name: 'Action', in: 'query', required: true, schema: { enum: [`Do${i}`] } }],
        responses: { '200': { description: 'ok' } },
      },
    };
  const model = normalise({
    file: 'inline.json',
    locate: () => undefined,
    document: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths },
  });
  const shared = model.findings.filter((f) => f.code === 'operation-shared-route');
  expect(shared).toHaveLength(12);
  for (const f of shared) {
    // Operations are sorted by path: do0, do1, do10, do11, do2, ...
    expect(f.message).toMatch(/^12 operations share POST \/ \((do\d+, ){7}do\d+ and 4 more\):/);
    expect(f.message).not.toMatch(/do9/);
  }
});
