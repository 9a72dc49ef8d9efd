/**
 * `dataapi contract --replay FILE`: sends the minimal request of one fuzzing finding again (for a
 * link, its source request and then the follow-up) and judges the answer with the same checks.
 * Exit 1 while it still fails, 0 once it passes.
 */
import path from 'node:path';
import type { Operation, ServiceModel } from 'dataapi/model';
import { findOperation, redactorFor } from 'dataapi/runtime/shared';
import { expectedGotOf } from './checks/verdict.ts';
import { RETRY_DEFAULTS, type ContractConfig } from './config.ts';
import { judgeProbe } from './fuzz/judge.ts';
import type { ReplayFile } from './fuzz/replay-file.ts';
import { createTransport, type Transport } from './http.ts';
import { followUp, linksOf } from './links.ts';
import type { NegativeCase } from './negatives.ts';
import type { Probe } from './probe.ts';
import { ok } from './probe.ts';
import { sendProbe } from './probes.ts';
import { answerLine } from './reports/report.ts';
import { oneLine } from './reports/escape.ts';
import { requestOfSaved, validRequests } from './requests.ts';
import { RunError } from './run-error.ts';
import { loadModel } from './runner.ts';
import { LocalScheduler } from './scheduler.ts';
import { linkSource } from './sequences.ts';
import { startEmbeddedMock } from './target.ts';

export interface ReplayOptions {
  root?: string;
  generatedDir?: string;
  /** The replay file as given (shown in the output). */
  fileName: string;
  file: ReplayFile;
  baseUrl?: string;
  appkey?: string;
  timeoutMs: number;
  allowWrites: boolean;
  out?: NodeJS.WritableStream;
}

export async function replayContract(o: ReplayOptions): Promise<number> {
  const root = path.resolve(o.root ?? process.cwd());
  const out = o.out ?? process.stdout;
  const model = await loadModel(path.resolve(root, o.generatedDir ?? 'generated'));
  const f = o.file.finding;
  const op = model.operations.find((x) => x.id === f.operation);
  if (!op)
    throw new RunError(
      `the replay's operation ${JSON.stringify(f.operation)} is not in this description${o.file.spec ? ` (it was written for --spec ${o.file.spec})` : ''}`,
      2,
    );
  let appkey = o.appkey ?? '';
  let baseUrl = o.baseUrl?.replace(/\/+$/, '');
  const closers: (() => Promise<void>)[] = [];
  try {
    const embedded = baseUrl === undefined && o.file.target.embeddedMock;
    if (embedded) {
      appkey ||= 'dataapi-contract-key';
      const mock = await startEmbeddedMock(
        path.resolve(root, o.generatedDir ?? 'generated'),
        appkey,
      );
      closers.push(mock.close);
      baseUrl = mock.url;
    }
    baseUrl ??= o.file.target.baseUrl;
    if (op.writes && !o.allowWrites && !embedded)
      throw new RunError(`${op.id} writes: replay it with --allow-writes`, 2);
    const config: ContractConfig = {
      baseUrl,
      appkey,
      timeoutMs: o.timeoutMs,
      allowWrites: o.allowWrites || embedded,
      ...RETRY_DEFAULTS,
    };
    const t = createTransport(config, new LocalScheduler());
    const redactor = redactorFor([appkey]);
    out.write(
      `dataapi contract: replaying ${o.fileName} (${f.kind} request of ${op.id}, --seed ${f.seed}) against ${redactor.url(baseUrl)}${embedded ? ' (embedded mock)' : ''}\n`,
    );
    const probe = await replayed(model, op, o.file, t);
    if (!probe) {
      out.write('  the source request did not succeed, so its link cannot be followed\n');
      return 1;
    }
    const r = probe.exchange.record;
    out.write(`  request:  ${oneLine(`${r.request.method} ${redactor.url(r.request.url)}`)}\n`);
    out.write(`  response: ${oneLine(redactor.text(answerLine(r)))}\n`);
    const { failures } = judgeProbe(model, probe, config);
    for (const x of failures)
      out.write(
        `  ✗ ${x.check}: ${expectedGotOf(oneLine(x.expected), oneLine(redactor.text(x.actual)))}\n`,
      );
    out.write(
      failures.length > 0
        ? `It still fails (${failures.length} check${failures.length === 1 ? '' : 's'}).\n`
        : 'It passes now: every check holds.\n',
    );
    return failures.length > 0 ? 1 : 0;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

/** Sends the finding's request (and follows its link); the probe to judge. */
async function replayed(
  model: ServiceModel,
  op: Operation,
  file: ReplayFile,
  t: Transport,
): Promise<Probe | undefined> {
  const f = file.finding;
  const request = requestOfSaved(op, f.request);
  const purpose = `replay of fuzz ${f.kind} request (--seed ${f.seed}, run ${f.run})`;
  const uncertain = op.parameters.path.length > 0;
  if (f.kind === 'invalid') {
    const v = f.violation ?? { label: 'invalid request', target: '', kind: 'type' };
    const negative = { ...v, apply: (s) => s } as NegativeCase;
    return sendProbe(model, t, op, 'main', 'negative', op, request, `${purpose}: ${v.label}`, {
      negative,
    });
  }
  const source = await sendProbe(model, t, op, 'main', 'valid', op, request, purpose, {
    uncertain,
  });
  if (f.kind === 'valid') return source;
  const link = linksOf(op, source.exchange.record.status).find((l) => l.name === f.link?.name);
  if (!ok(source) || !link) return undefined;
  const target = findOperation(model, link.target);
  const next = followUp(link, linkSource(source), validRequests(model, target)[0]!);
  return sendProbe(
    model,
    t,
    op,
    'main',
    'valid',
    target,
    next.spec,
    `${purpose}: link ${link.name}`,
  );
}
