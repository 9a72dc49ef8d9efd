/**
 * A child process of the agreement run (agreement-pool.ts): takes descriptions one by one over its
 * IPC channel and answers each with its record, so that the runner can bound each one's time and
 * kill a worker that hangs without losing what the others did. Runs on the package's own sources
 * (`--conditions=dataapi-source`): model, runtime and contract tests are one copy.
 */
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { agreementOf, classOf, type Finding } from './agreement.ts';
import { unknownFindings } from './agreement-known.ts';
import type { AgreementRecord } from './agreement-records.ts';

export interface AgreementJob {
  id: string;
  spec: string;
  seed: number;
}

async function recordOf(job: AgreementJob): Promise<AgreementRecord> {
  const started = performance.now();
  const base = { id: job.id, at: new Date().toISOString() };
  const ms = () => Math.round(performance.now() - started);
  let model;
  try {
    model = normalise(await loadSpec(job.spec));
  } catch (err) {
    return {
      ...base,
      outcome: 'unloadable',
      ms: ms(),
      findings: [],
      message: (err as Error).message.slice(0, 500),
    };
  }
  let findings: Finding[];
  let totals: AgreementRecord['totals'];
  let outcome: AgreementRecord['outcome'] = 'ok';
  try {
    const a = await agreementOf(model, { seed: job.seed, perOperation: 1 });
    findings = a.findings;
    totals = { ...a.counts };
  } catch (err) {
    outcome = 'threw';
    findings = [
      {
        operation: '*',
        location: 'body',
        name: '*',
        kind: 'threw',
        detail: (err as Error).message,
      },
    ];
  }
  const unknown = new Set(unknownFindings(job.id, findings));
  return {
    ...base,
    outcome,
    ms: ms(),
    ...(totals ? { totals } : {}),
    findings: findings.map((f) => ({ ...f, class: classOf(f), known: !unknown.has(f) })),
  };
}

process.on('message', (job: AgreementJob) => {
  void recordOf(job).then((r) => process.send!(r));
});
process.on('disconnect', () => process.exit(0));
process.send!({ ready: true });
