/** Every operation and preview variant of the service answers through the mock, and its body validates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeGroupOf, describeErrors, readEnvelope, validatorFor } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { call, startMock, validRequest, type Running } from './helpers.ts';

let mock: Running;
beforeAll(async () => {
  mock = await startMock({ rateLimit: false });
});
afterAll(() => mock.close());

const variants = model.operations.flatMap((op) => [
  { op, preview: false, name: op.id },
  ...(op.preview ? [{ op, preview: true, name: op.preview.id }] : []),
]);

describe('every operation and preview variant', () => {
  it.each(variants.map((v) => [v.name, v] as const))(
    '%s answers 200 with a body of its schema',
    async (_n, v) => {
      const res = await call(mock.url, validRequest(model, v.op, { preview: v.preview }));
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const check = validatorFor(model).compile(v.op.success!.schema!);
      expect(check(res.body), describeErrors(check.errors, res.body).join('\n')).toBe(true);
      if (v.op.envelope) {
        const reading = readEnvelope(v.op, res.body);
        expect(reading.wellFormed).toBe(true);
        expect(reading.foreignKeys).toEqual([]);
        expect(reading.code).toBe(codeGroupOf(model, v.op)?.successCode ?? 100);
      }
    },
  );

  it('serves every named example on request, and dynamic samples that validate', async () => {
    for (const op of model.operations) {
      const check = validatorFor(model).compile(op.success!.schema!);
      for (const example of op.success!.examples) {
        const res = await call(mock.url, validRequest(model, op), {
          prefer: `example=${example.name}`,
        });
        expect(res.status, `${op.id} ${example.name}`).toBe(200);
        const expected = readEnvelope(op, example.value).payload;
        if (op.async?.role !== 'submit' && op.parameters.path.length === 0) {
          expect(readEnvelope(op, res.body).payload, `${op.id} ${example.name}`).toEqual(expected);
        }
      }
      for (const seed of [1, 2]) {
        const res = await call(mock.url, validRequest(model, op), {
          prefer: `dynamic=true, seed=${seed}`,
        });
        expect(res.status, op.id).toBe(200);
        expect(
          check(res.body),
          `${op.id} dynamic: ${describeErrors(check.errors, res.body).join('; ')}`,
        ).toBe(true);
      }
    }
  });

  it('gives the same dynamic data for the same seed and answers the query forms', async () => {
    const op = model.operations.find((o) => o.id === 'getAirQuality')!;
    const req = validRequest(model, op);
    const a = await call(mock.url, { ...req, path: `${req.path}&__dynamic=true&__seed=5` });
    const b = await call(mock.url, { ...req, path: `${req.path}&__dynamic=true&__seed=5` });
    expect(a.status).toBe(200);
    expect(readEnvelope(op, a.body).payload).toEqual(readEnvelope(op, b.body).payload);
    const stale = await call(mock.url, { ...req, path: `${req.path}&__example=stale` });
    expect((readEnvelope(op, stale.body).payload as { DataStatus: string }[])[0]?.DataStatus).toBe(
      'stale',
    );
  });

  it('pages: never more items than pageSize', async () => {
    const op = model.operations.find((o) => o.id === 'getGlobalUniversityRanking')!;
    const lengths = async (size: number) => {
      const out: number[] = [];
      for (let seed = 0; seed < 8; seed++) {
        const req = validRequest(model, op);
        const path = req.path.replace(/([?&])pageSize=\d+/, '$1') + `&pageSize=${size}`;
        const res = await call(
          mock.url,
          { ...req, path },
          { prefer: `dynamic=true, seed=${seed}` },
        );
        expect(res.status).toBe(200);
        out.push((readEnvelope(op, res.body).payload as unknown[]).length);
      }
      return out;
    };
    // With room, some samples have several items; with pageSize=1 none has more than one.
    expect(Math.max(...(await lengths(20)))).toBeGreaterThan(1);
    expect(Math.max(...(await lengths(1)))).toBeLessThanOrEqual(1);
  });

  it('stamps every answer with the current time, not the example time', async () => {
    const op = model.operations.find((o) => o.id === 'getAirQuality')!;
    const before = Date.now();
    const res = await call(mock.url, validRequest(model, op));
    const stamp = Date.parse(String(readEnvelope(op, res.body).status?.ResponseDateTime));
    expect(stamp).toBeGreaterThanOrEqual(before - 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('answers /__health', async () => {
    const res = await fetch(`${mock.url}/__health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', operations: model.operations.length });
  });
});
