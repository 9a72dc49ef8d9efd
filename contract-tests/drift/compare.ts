/**
 * `dataapi contract --base-url URL --compare-mock`: every request of the suite (valid requests,
 * preview variants, no key and a wrong key, the negative cases) sent to the deployment and to the
 * embedded mock; each answer pair that disagrees on an aspect of `AnswerShape` is a finding of
 * code `drift` (the one record, model/finding.ts) with both answers side by side. Operations run side by side, each paced by its own
 * rate limit on both targets.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  Diagnostics,
  runSeverity,
  type Finding,
  type Operation,
  type ServiceModel,
  type SeveritySettings,
} from 'dataapi/model';
import { redactorFor } from 'dataapi/runtime/shared';
import { RETRY_DEFAULTS, type ContractConfig } from '../config.ts';
import type { Variant } from '../exchange.ts';
import { createTransport, type Transport } from '../http.ts';
import { negativeCases } from '../negatives.ts';
import type { Role } from '../probe.ts';
import { sendProbe } from '../probes.ts';
import { validRequests, type RequestSpec } from '../requests.ts';
import { LocalScheduler } from '../scheduler.ts';
import { RunError } from '../run-error.ts';
import { startEmbeddedMock } from '../target.ts';
import { ASPECTS, shapeOf, type AnswerShape, type Aspect } from './answer.ts';

/** One disagreement as contract-drift.json lists it (and the console shows it). */
export interface DriftEntry {
  kind: 'drift';
  operation: string;
  variant: Variant;
  /** What the request was for (`valid request (default)`, `no key`, `negative: ...`). */
  purpose: string;
  method: string;
  /** Path and query as sent to the deployment, key redacted. */
  request: string;
  differences: { aspect: Aspect; deployment: string; mock: string }[];
  deployment: AnswerShape;
  mock: AnswerShape;
}

/** A disagreement as the one finding record: its differences are the evidence's lines. */
export type DriftFinding = Finding<'drift'>;

function driftFinding(
  sink: Diagnostics,
  e: DriftEntry,
  op: Operation,
  status: number | undefined,
): DriftFinding | undefined {
  const each = (side: 'deployment' | 'mock') =>
    e.differences.map((d) => `${d.aspect} ${d[side]}`).join('; ');
  return sink.add({
    code: 'drift',
    message: `${e.purpose}: the deployment answered otherwise than the mock (${e.differences.map((d) => d.aspect).join(', ')})`,
    operation: e.operation,
    variant: e.variant,
    pointer: op.pointer,
    evidence: {
      request: { method: e.method, url: e.request, purpose: e.purpose },
      ...(status !== undefined ? { status } : {}),
      expected: each('mock'),
      actual: each('deployment'),
      errors: e.differences.map((d) => `${d.aspect}: deployment ${d.deployment}, mock ${d.mock}`),
    },
  });
}

export interface CompareOptions {
  model: ServiceModel;
  generatedDir: string;
  baseUrl: string;
  appkey: string;
  timeoutMs: number;
  allowWrites: boolean;
  only?: string[];
  reportDir: string;
  root: string;
  out: NodeJS.WritableStream;
  /** The user's --severity: `drift=warning` reports disagreements without failing the run. */
  severity?: SeveritySettings;
}

const MOCK_KEY = 'dataapi-compare-mock-key';

interface Planned {
  variant: Variant;
  role: Role;
  spec: RequestSpec;
  purpose: string;
  keyMode?: 'none' | 'wrong';
}

/** The suite's requests of one operation, in the order the suite sends them. */
function planOf(model: ServiceModel, op: Operation): Planned[] {
  const valid = validRequests(model, op);
  const first = valid[0]!;
  const plan: Planned[] = valid.map((spec) => ({
    variant: 'main',
    role: 'valid',
    spec,
    purpose: `valid request (${spec.name})`,
  }));
  if (op.preview)
    plan.push(
      ...valid.map((spec) => ({
        variant: 'preview' as const,
        role: 'valid' as const,
        spec,
        purpose: `preview (${spec.name})`,
      })),
    );
  if (op.auth.required && op.auth.transports.length > 0)
    plan.push(
      { variant: 'main', role: 'no-key', spec: first, purpose: 'no key', keyMode: 'none' },
      { variant: 'main', role: 'wrong-key', spec: first, purpose: 'wrong key', keyMode: 'wrong' },
    );
  // Not a value outside a format: the mock asserts formats, a deployment may take them as the
  // annotations they are (the contract run warns, format-not-asserted), which is no drift.
  for (const c of negativeCases(model, op).filter((c) => c.kind !== 'format'))
    plan.push({
      variant: 'main',
      role: 'negative',
      spec: c.apply(first),
      purpose: `negative: ${c.label}`,
    });
  return plan;
}

function transport(baseUrl: string, appkey: string, o: CompareOptions): Transport {
  const config: ContractConfig = {
    baseUrl,
    appkey,
    timeoutMs: o.timeoutMs,
    allowWrites: o.allowWrites,
    ...RETRY_DEFAULTS,
  };
  return createTransport(config, new LocalScheduler());
}

export function driftLines(f: DriftEntry): string[] {
  const who = `${f.operation}${f.variant === 'preview' ? ' (preview)' : ''}`;
  const width = Math.max(10, ...f.differences.map((d) => d.deployment.length));
  return [
    `≠ ${who} drift: ${f.purpose}: ${f.method} ${f.request}`,
    `    ${''.padEnd(13)}${'deployment'.padEnd(width + 2)}mock`,
    ...f.differences.map(
      (d) => `    ${d.aspect.padEnd(13)}${d.deployment.padEnd(width + 2)}${d.mock}`,
    ),
  ];
}

/**
 * Exit code: 1 when the deployment and the mock disagree anywhere (or an answer is missing).
 * Not the one judge (checks/judge-exchange.ts): that judges one exchange against the description,
 * while this compares two targets' answers to the same request with each other (both may conform,
 * and still differ), so no check's violation is involved; only the record is shared.
 */
export async function compareWithMock(
  o: CompareOptions,
): Promise<{ exitCode: number; findings: DriftFinding[]; entries: DriftEntry[] }> {
  const redactor = redactorFor([o.appkey]);
  const unknown = (o.only ?? []).filter((id) => !o.model.operations.some((op) => op.id === id));
  if (unknown.length > 0)
    throw new RunError(
      `--only: no operation ${unknown.map((x) => JSON.stringify(x)).join(', ')}`,
      2,
    );
  const mock = await startEmbeddedMock(o.generatedDir, MOCK_KEY);
  const found: { entry: DriftEntry; finding: DriftFinding }[] = [];
  const sink = new Diagnostics(runSeverity(o.severity));
  let pairs = 0;
  let skipped = 0;
  try {
    const deployment = transport(o.baseUrl.replace(/\/+$/, ''), o.appkey, o);
    const embedded = transport(mock.url, MOCK_KEY, o);
    o.out.write(`dataapi contract: comparing ${redactor.url(o.baseUrl)} with the embedded mock\n`);
    const ops = o.model.operations.filter((op) => !o.only || o.only.includes(op.id));
    await Promise.all(
      ops.map(async (op) => {
        if (op.writes && !o.allowWrites) {
          skipped++;
          return;
        }
        for (const p of planOf(o.model, op)) {
          const extra = p.keyMode ? { keyMode: p.keyMode } : {};
          const there = await sendProbe(
            o.model,
            deployment,
            op,
            p.variant,
            p.role,
            op,
            p.spec,
            p.purpose,
            extra,
          );
          const here = await sendProbe(
            o.model,
            embedded,
            op,
            p.variant,
            p.role,
            op,
            p.spec,
            p.purpose,
            extra,
          );
          pairs++;
          const a = shapeOf(o.model, op, there.exchange);
          const b = shapeOf(o.model, op, here.exchange);
          const differences = ASPECTS.filter((k) => a[k] !== b[k]).map((aspect) => ({
            aspect,
            deployment: redactor.text(a[aspect]),
            mock: b[aspect],
          }));
          if (differences.length === 0) continue;
          const url = new URL(there.exchange.record.request.url);
          const f: DriftEntry = {
            kind: 'drift',
            operation: op.id,
            variant: p.variant,
            purpose: p.purpose,
            method: there.exchange.record.request.method,
            request: `${url.pathname}${url.search}`,
            differences,
            deployment: redactor.deep(a),
            mock: b,
          };
          const finding = driftFinding(sink, f, op, there.exchange.record.status);
          if (!finding) continue; // turned off (--severity drift=off)
          found.push({ entry: f, finding });
          o.out.write(`${driftLines(f).join('\n')}\n`);
        }
      }),
    );
  } finally {
    await mock.close();
  }
  found.sort(({ entry: x }, { entry: y }) =>
    x.operation < y.operation ? -1 : x.operation > y.operation ? 1 : 0,
  );
  const entries = found.map((x) => x.entry);
  const findings = found.map((x) => x.finding);
  const file = path.resolve(o.root, o.reportDir, 'contract-drift.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    `${JSON.stringify({ version: 1, target: redactor.url(o.baseUrl), pairs, skippedWriting: skipped, findings: entries }, null, 2)}\n`,
  );
  o.out.write(
    `Drift: ${findings.length} disagreement(s) in ${pairs} request pair(s)${skipped ? `; ${skipped} writing operation(s) not sent (--allow-writes)` : ''}\nReport: ${path.relative(o.root, file)}\n`,
  );
  const failed = findings.some((f) => f.severity === 'failure');
  return { exitCode: failed ? 1 : 0, findings, entries };
}
