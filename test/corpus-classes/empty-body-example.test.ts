/**
 * A required request body whose example is empty (go2rtc: `example: ""` for
 * application/pairing+tlv8). Sent as it is, it is zero bytes, which HTTP cannot tell from no body:
 * the mock rightly answered "body is required" and the suite failed it. The description
 * contradicts itself: a warning (example-invalid), and a schema sample is sent instead.
 */
import { describe, expect, it } from 'vitest';
import { validRequests, requestWarnings } from '../../contract-tests/requests.ts';
import { expectPassed, fixture, modelOf, ownSuite } from './helpers.ts';

describe('a required body whose example is empty', () => {
  it('is sent as a sample, not as no body, with a warning', async () => {
    const model = await modelOf('empty-body-example.yaml');
    for (const op of model.operations) {
      const specs = validRequests(model, op);
      expect(specs.map((s) => s.name)).toEqual(['schema sample']);
      expect(specs[0]!.body, op.id).not.toBe('');
      expect(requestWarnings(model, op).map((w) => w.code)).toEqual(['example-invalid']);
    }
  });

  it('passes the suite against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('empty-body-example.yaml'));
    expectPassed(run, tail);
  }, 120_000);
});
