/**
 * Required query objects written pair by pair whose properties are all optional (SQS's and SNS's
 * required attribute maps, form exploded): drawn as `{}`, such an object writes no pair, so the
 * mock read it as missing and refused the suite's valid request. The suite and the agreement now
 * draw one with a property at least (model/query-objects.ts drawnParameterSchema).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { expectPassed, fixture, ownSuite, serve, type Served } from './helpers.ts';

const FILE = fixture('required-query-map.yaml');
let served: Served;
beforeAll(async () => {
  served = await serve('required-query-map.yaml');
});
afterAll(() => served?.close());

describe('a required query object whose properties are all optional', () => {
  it('is drawn with a property at least', () => {
    const first = (id: string) =>
      validRequests(
        served.model,
        served.model.operations.find((o) => o.id === id)!,
      )[0]!;
    const [queues, images] = [first('setQueueAttributes'), first('createImage')];
    for (const [spec, name] of [
      [queues, 'Attribute'],
      [images, 'Location'],
      [images, 'filter'],
    ] as const)
      expect(Object.keys(spec.query[name] as object).length, name).toBeGreaterThan(0);
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });

  it('passes the suite against its own mock', async () => {
    const { run, tail } = await ownSuite(FILE, { fuzz: true });
    expectPassed(run, tail);
  });
});
