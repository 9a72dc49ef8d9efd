/**
 * The suite's route through the one judge (checks/index.ts runCheck, judge-exchange.ts Route): a
 * negative request the description admits as sent (the suite built it wrong), taken by the
 * embedded mock, is put down to a toolkit fault after the recheck, not the target's failure; the
 * user's setting for the check decides first (warning: listed as a warning, never rechecked into
 * a fault; off: nothing).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeveritySettings } from '../../model/index.ts';
import { model } from '../../generated/model.ts';
import { recheckViolations, runCheck } from '../../contract-tests/checks/index.ts';
import { RETRY_DEFAULTS, type ContractConfig } from '../../contract-tests/config.ts';
import { createTransport } from '../../contract-tests/http.ts';
import { negativeCases } from '../../contract-tests/negatives.ts';
import type { Probe } from '../../contract-tests/probe.ts';
import { sendProbe } from '../../contract-tests/probes.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { LocalScheduler } from '../../contract-tests/scheduler.ts';
import { startEmbeddedMock } from '../../contract-tests/target.ts';
import { ROOT } from './harness.ts';

const KEY = 'run-check-route-key';
let mock: Awaited<ReturnType<typeof startEmbeddedMock>>;
let probe: Probe;

const configOf = (severity?: SeveritySettings): ContractConfig => ({
  baseUrl: mock.url,
  appkey: KEY,
  timeoutMs: 30_000,
  allowWrites: false,
  ...RETRY_DEFAULTS,
  ...(severity ? { severity } : {}),
});

// A reading operation with a negative case and a route of its own (a shared one is the
// description's warning, not a fault).
const op = model.operations.find(
  (o) =>
    !o.writes &&
    negativeCases(model, o).length > 0 &&
    !model.operations.some((x) => x !== o && x.method === o.method && x.path === o.path),
)!;

beforeAll(async () => {
  mock = await startEmbeddedMock(path.join(ROOT, 'generated'), KEY, model);
  const t = createTransport(configOf(), new LocalScheduler());
  const c = negativeCases(model, op)[0]!;
  // The suite's mistake, planted: the "negative" request is the valid one.
  probe = await sendProbe(
    model,
    t,
    op,
    'main',
    'negative',
    op,
    validRequests(model, op)[0]!,
    `negative: ${c.label}`,
    { negative: c },
  );
});
afterAll(() => mock.close());

async function judged(severity?: SeveritySettings) {
  const ctx = {
    model,
    op,
    set: { variant: 'main' as const, probes: [probe] },
    config: configOf(severity),
  };
  await recheckViolations('negative', ctx);
  return runCheck('negative', ctx);
}

describe("runCheck's route through the one judge", () => {
  it('puts a failure of a request the suite built wrong down to a toolkit fault', async () => {
    expect(probe.exchange.record.status).toBe(200);
    const r = await judged();
    expect(r.status).toBe('passed');
    expect(r.message).toBe("1 request(s) conform; 1 toolkit fault(s), not the target's");
    expect(r.warnings).toBeUndefined();
    const why =
      'the request meant to be refused is valid per the description as it was sent (after serialisation): the suite built it wrong, the target was right to take it';
    const req = probe.exchange.record.request;
    expect(r.toolkitFaults).toEqual([
      {
        code: 'toolkit-fault',
        operation: op.id,
        check: 'negative',
        purpose: req.purpose,
        request: { method: req.method, url: req.url },
        expected: expect.stringMatching(/^refused: HTTP 400/),
        actual: expect.stringMatching(/^HTTP 200/),
        message: why,
      },
    ]);
    expect(r.findings).toEqual([
      {
        code: 'toolkit-fault',
        severity: 'not-tested',
        message: `${req.purpose}: ${why}`,
        operation: op.id,
        variant: 'main',
        pointer: op.pointer,
        evidence: {
          request: { method: req.method, url: req.url, purpose: req.purpose },
          expected: r.toolkitFaults![0]!.expected,
          actual: r.toolkitFaults![0]!.actual,
        },
      },
    ]);
  });

  it('lets the setting decide first: warning is a warning, off is nothing', async () => {
    const warned = await judged({ negative: 'warning' });
    expect(warned.status).toBe('passed');
    expect(warned.toolkitFaults).toBeUndefined();
    expect(warned.warnings?.map((w) => `${w.code} ${w.pointer}`)).toEqual([
      `negative ${op.pointer}`,
    ]);
    expect(warned.findings?.map((f) => `${f.code} ${f.severity}`)).toEqual(['negative warning']);
    const off = await judged({ negative: 'off' });
    expect(off.status).toBe('passed');
    expect(off.message).toBe('1 request(s) conform');
    expect(off.findings).toEqual([]);
    expect(off.warnings).toBeUndefined();
    expect(off.toolkitFaults).toBeUndefined();
  });
});
