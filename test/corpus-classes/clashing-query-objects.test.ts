/**
 * An exploded query object whose every property another object writes too (amazonaws.com/ec2's
 * Monitoring: its one property, Enabled, is HibernationOptions' too) was read as a free-form
 * object: it took every name no other parameter took, and the mock refused the suite's fuzzed
 * valid requests ("Monitoring must have required property 'Enabled'", 3 toolkit faults in stage
 * 2). It takes nothing now: only a schema without properties is free-form.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveBoth } from './helpers.ts';

const served = serveBoth('clashing-query-objects.yaml');

describe('query objects whose properties all clash', () => {
  it('the mock and the server stubs take a request without them', async () => {
    for (const url of [served.mock.url, served.server.url]) {
      const res = await fetch(`${url}/?Configured=true&Arn=a1&Name=n1&Stray=x`);
      expect(res.status, await res.text()).toBe(200);
    }
  });

  it('agreement by construction: no finding', async () => {
    const a = await agreementOf(served.mock.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
