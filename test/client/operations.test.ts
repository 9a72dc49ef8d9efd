/**
 * Every operation and preview variant of the service through the generated client against the
 * generated mock over HTTP: inputs come from the spec's examples (files become Blobs), and each
 * call must come back as the normalised shape with its group's success code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allParameters, type Operation } from 'dataapi/model';
import { codeGroupOf } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { createClient, type ClientResult } from '../../generated/client/index.ts';
import { MOCK_KEY, startMock, type Running } from './helpers.ts';

let mock: Running;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

type Input = { query?: object; path?: object; header?: object; body?: unknown };

function inputFor(op: Operation, taskId: string | undefined): Input {
  const input: Input = {};
  for (const p of allParameters(op.parameters)) {
    if (!p.required && p.example === undefined) continue;
    const value = p.name === 'task_id' && taskId ? taskId : p.example;
    const where = (input[p.in as 'query' | 'path' | 'header'] ??= {}) as Record<string, unknown>;
    where[p.name] = value;
  }
  // Air quality: location wins over city; sending one is the documented way.
  if (op.requireAnyOf.length) delete (input.query as Record<string, unknown>)['city'];
  const example = op.body?.examples[0]?.value;
  if (example !== undefined) {
    const body = { ...(example as Record<string, unknown>) };
    for (const f of op.body?.fileFields ?? []) {
      const v = body[f];
      body[f] = Array.isArray(v)
        ? v.map((_, i) => new Blob([`document ${i}`], { type: 'application/pdf' }))
        : new Blob(['document'], { type: 'application/pdf' });
    }
    input.body = body;
  }
  return input;
}

describe('every operation through the generated client against the mock', () => {
  const client = () => createClient({ baseUrl: mock.baseUrl, appkey: MOCK_KEY, retry: false });
  let taskId: string | undefined;

  const variants = model.operations.flatMap((op) => [
    { id: op.id, op },
    ...(op.preview ? [{ id: op.preview.id, op }] : []),
  ]);

  it('generates a method for each operation and preview variant', () => {
    const c = client() as unknown as Record<string, unknown>;
    for (const v of variants) expect(typeof c[v.id], v.id).toBe('function');
    const extra = Object.keys(c).filter((k) => !variants.some((v) => v.id === k));
    expect(extra.sort()).toEqual(['$runtime', 'submitAndWait']);
    expect(Object.keys(c['submitAndWait'] as object)).toEqual(
      model.operations.filter((o) => o.async?.role === 'submit').map((o) => o.id),
    );
  });

  for (const { id, op } of variants) {
    it(`${id} answers in the normalised shape`, async () => {
      const c = client() as unknown as Record<string, (i: Input) => Promise<ClientResult>>;
      if (op.id === 'getDocumentExtractionTask' && !taskId) {
        const submitted = await c['submitDocumentExtraction']!(
          inputFor(
            model.operations.find((o) => o.id === 'submitDocumentExtraction')!,
            undefined,
          ),
        );
        taskId = (submitted.data as { operationId: string }).operationId;
      }
      const result = await c[id]!(inputFor(op, taskId));
      expect(result.httpStatus).toBe(200);
      const group = codeGroupOf(model, op);
      if (op.envelope) {
        expect(result.status.code).toBe(group?.successCode);
        expect(result.status.raw).toBeTypeOf('object');
        expect(result.status.dateTime).toBeTypeOf('string');
        expect(result.data).not.toBeUndefined();
      } else {
        // Plain JSON (exam-question similarity): the body is the data, no status fields.
        expect(result.status).toEqual({});
        expect(result.data).toBeTypeOf('object');
      }
      if (id === 'submitDocumentExtraction')
        taskId = (result.data as { operationId: string }).operationId;
    });
  }
});
