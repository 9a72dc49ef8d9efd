/**
 * One judge (contract-tests/checks/judge-exchange.ts): the same exchange, a planted non-conforming
 * answer the proxy forwarded and recorded, gives the same findings (codes, severities, messages)
 * judged by the proxy (and --from-har), by the fixed suite's checks and by fuzzing; and a user's
 * `--severity CODE=warning|off` changes the proxy's verdict exactly as it changes the suite's. The
 * suite's findings are the judge's own (runCheck judges through judgeCheck, not a loop of its own).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SeveritySettings } from '../../model/index.ts';
import { redactorFor } from '../../runtime/shared/index.ts';
import { model } from '../../generated/model.ts';
import { runCheck } from '../../contract-tests/checks/index.ts';
import { judgeCheck } from '../../contract-tests/checks/judge-exchange.ts';
import { RETRY_DEFAULTS, type ContractConfig } from '../../contract-tests/config.ts';
import { judgeProbe } from '../../contract-tests/fuzz/judge.ts';
import { readHar } from '../../contract-tests/proxy/har.ts';
import { judgedExchange, judgeObserved } from '../../contract-tests/proxy/judge.ts';
import { TrafficLog } from '../../contract-tests/proxy/log.ts';
import type { Observed } from '../../contract-tests/proxy/observed.ts';
import { KEY, runTestProxy } from './harness.ts';
import { PLANTED, startUpstream, type Upstream } from './upstream.ts';

// The real judge, watched: which findings it decided, and for whom (the proxy's and fuzzing's
// calls inside the module are not watched; runCheck's import of it is).
vi.mock('../../contract-tests/checks/judge-exchange.ts', async (importOriginal) => {
  const judge =
    await importOriginal<typeof import('../../contract-tests/checks/judge-exchange.ts')>();
  return { ...judge, judgeCheck: vi.fn(judge.judgeCheck) };
});

let upstream: Upstream;
let recorded: Observed[];
beforeAll(async () => {
  upstream = await startUpstream();
  const proxy = await runTestProxy(upstream.url, { record: true });
  // No key to an operation answering 418: the status is undeclared (a warning about the
  // description) and the refusal is not a 401 (an auth failure). With the key: a wrong business
  // code, and a body that fails its schema.
  for (const p of [
    PLANTED.undeclaredStatus,
    `${PLANTED.wrongCode}?ip=1.2.3.4&appkey=${KEY}`,
    `${PLANTED.missingField}?domain=example.com&appkey=${KEY}`,
  ])
    await (await fetch(`${proxy.url}${p}`)).arrayBuffer();
  await proxy.stop();
  recorded = await readHar(path.join(proxy.dir, 'traffic.har'));
});
afterAll(() => upstream.close());

interface Seen {
  code: string;
  severity: string;
  message: string;
}
const order = (list: Seen[]) =>
  [...list].sort((a, b) => `${a.code} ${a.message}`.localeCompare(`${b.code} ${b.message}`));

const configOf = (severity: SeveritySettings | undefined): ContractConfig => ({
  baseUrl: '',
  appkey: '',
  timeoutMs: 0,
  allowWrites: false,
  ...RETRY_DEFAULTS,
  ...(severity ? { severity } : {}),
});

/** One exchange judged by the proxy, the suite's checks and fuzzing, under the user's settings. */
function judgedByEach(o: Observed, severity: SeveritySettings | undefined) {
  const j = judgeObserved(model, o, redactorFor([KEY]), severity);
  const probe = j.probe!;
  const proxy = j.findings.map(({ finding: f }) => f);
  // The suite: each check the proxy judged the exchange with, as `dataapi contract` runs it.
  const ctx = {
    model,
    op: probe.op,
    set: { variant: j.variant!, probes: [probe] },
    config: configOf(severity),
  };
  const results = j.judged.map((check) => runCheck(check, ctx));
  const suite: Seen[] = results.flatMap((r) => [
    ...(r.status === 'failed' ? [{ code: r.check, severity: 'failure', message: r.message }] : []),
    ...(r.warnings ?? []).map((w) => ({ code: w.code, severity: 'warning', message: w.message })),
  ]);
  const fuzz = judgeProbe(model, probe, { ...configOf(severity), checks: j.judged });
  // The proxy's reports: the traffic's run result, check by check.
  const log = new TrafficLog();
  log.add(judgedExchange(j));
  const verdicts = log
    .result(model, 'x')
    .results.map((r) => `${r.check} ${r.status}`)
    .sort();
  return { j, proxy, suite, fuzz, results, verdicts };
}

const seen = (list: readonly { code: string; severity: string; message: string }[]): Seen[] =>
  order(list.map(({ code, severity, message }) => ({ code, severity, message })));

describe('one judge', () => {
  it('gives the proxy, the suite and fuzzing the same findings for the same exchange', () => {
    expect(recorded).toHaveLength(3);
    const all: Seen[] = [];
    for (const o of recorded) {
      const { proxy, suite, fuzz } = judgedByEach(o, undefined);
      expect(seen(proxy)).toEqual(order(suite));
      expect(seen(fuzz.findings.map((f) => f.finding))).toEqual(seen(proxy));
      // Fuzzing's failures and warnings are the judge's findings.
      expect(fuzz.failures.map((f) => `${f.check}: ${f.expected} / ${f.actual}`)).toEqual(
        fuzz.findings
          .filter((f) => f.finding.severity === 'failure')
          .map(
            (f) => `${f.check}: ${f.finding.evidence!.expected} / ${f.finding.evidence!.actual}`,
          ),
      );
      all.push(...seen(proxy));
    }
    // The planted violations are there (paths that judged nothing would agree too).
    expect(all.map((f) => `${f.code} ${f.severity}`).sort()).toEqual([
      'auth failure',
      'business-code failure',
      'schema failure',
      'undeclared-status warning',
    ]);
    expect(all.find((f) => f.code === 'auth')!.message).toBe(
      'observed GET: expected HTTP 401, got HTTP 418, business code 100',
    );
  });

  it.each<[string, SeveritySettings]>([
    ['a check set to warning', { auth: 'warning', schema: 'warning' }],
    ['a check set to off', { auth: 'off', 'business-code': 'off' }],
    ['a description warning set to off', { 'undeclared-status': 'off' }],
  ])(
    "changes the proxy's verdict as it changes the suite's: %s",
    (_name, settings: SeveritySettings) => {
      for (const o of recorded) {
        const before = judgedByEach(o, undefined);
        const after = judgedByEach(o, settings);
        expect(seen(after.proxy)).toEqual(order(after.suite));
        expect(seen(after.fuzz.findings.map((f) => f.finding))).toEqual(seen(after.proxy));
        // The verdict of each check, in the proxy's reports as in the suite's results.
        expect(after.verdicts).toEqual(after.results.map((r) => `${r.check} ${r.status}`).sort());
        // What the settings name changed, and nothing else did.
        const named = (f: Seen) => Object.hasOwn(settings, f.code);
        expect(seen(after.proxy).filter((f) => !named(f))).toEqual(
          seen(before.proxy).filter((f) => !named(f)),
        );
        for (const f of seen(before.proxy).filter(named)) {
          const now = seen(after.proxy).find((x) => x.code === f.code);
          if (settings[f.code] === 'off') expect(now, f.code).toBeUndefined();
          else expect(now, f.code).toEqual({ ...f, severity: settings[f.code] });
        }
      }
      // Each setting met a finding it could change.
      const codes = recorded.flatMap((o) => judgedByEach(o, undefined).proxy.map((f) => f.code));
      for (const code of Object.keys(settings)) expect(codes).toContain(code);
    },
  );

  it.each<[string, SeveritySettings | undefined]>([
    ['the catalogue', undefined],
    ['a check set to warning', { auth: 'warning', schema: 'warning' }],
  ])(
    "gives the suite its findings: each of runCheck's is one the judge decided (%s)",
    (_n, settings) => {
      const judged = vi.mocked(judgeCheck);
      let failures = 0;
      for (const o of recorded) {
        judged.mockClear();
        const { results } = judgedByEach(o, settings);
        const decided = judged.mock.results.flatMap((r) =>
          r.type === 'return' ? r.value.findings.map((f) => f.finding) : [],
        );
        // The judge was asked by runCheck, check by check, with the run's settings.
        expect(judged.mock.calls.map(([check]) => check)).toEqual(results.map((r) => r.check));
        const own = results.flatMap((r) => r.findings ?? []);
        expect(own).toHaveLength(decided.length);
        for (const f of own)
          expect(
            decided.some((d) => d === f),
            f.message,
          ).toBe(true);
        for (const r of results) if (r.status === 'failed') failures++;
        // A check the user set to warning is listed as a warning, as the judge decided.
        for (const f of own)
          if (settings && Object.hasOwn(settings, f.code)) expect(f.severity).toBe('warning');
      }
      expect(failures).toBe(settings ? 1 : 3);
    },
  );
});
