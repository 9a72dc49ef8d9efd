/**
 * Live pacing (issue 9, item 7): against a local server that records when each request arrives
 * (bench/servers/recorder.ts, its own process), does the contract runner keep every operation at or
 * under its declared rate limit, and does it reach at least 90% of the limit when there is enough
 * work? Two phases:
 *  - the whole suite: `dataapi contract --base-url <recorder>`, the runner exactly as QA runs it;
 *  - saturated: more requests than fit in one window queued at once for one operation per declared
 *    per-second limit, sent through the runner's own transport and scheduler (the scheduler served
 *    over loopback as the runner serves it to its vitest workers, two workers sharing it).
 * Per operation: the most arrivals in any window of the declared length (must be <= the limit) and,
 * with more requests than the limit, the pacing efficiency: the shortest span the limit allows for
 * that many requests (whole windows) divided by the span observed (>= 90%).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Operation, ServiceModel } from 'dataapi/model';
import type { BenchContext, Section } from './lib/context.ts';
import { suiteSummary, timed } from './lib/proc.ts';
import { startServer, type RunningServer } from './lib/servers.ts';
import { fmtInt, type Verdict } from './lib/stats.ts';

interface Arrival {
  t: number;
  method: string;
  path: string;
}

interface OpPacing {
  id: string;
  limit: string;
  n: number;
  maxInWindow: number;
  allowed: number;
  /** Ideal span / observed span, when n exceeds the limit. */
  efficiency?: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The operation a request path counts against: the longest declared path it starts with. */
function attribute(model: ServiceModel): (p: string) => Operation | undefined {
  const patterns = model.operations
    .map((op) => ({
      op,
      len: op.path.length,
      re: new RegExp(
        `^${op.path
          .split(/\{[^}]+\}/)
          .map(escapeRe)
          .join('[^/]+')}(?:/|$)`,
      ),
    }))
    .sort((a, b) => b.len - a.len);
  return (p) => patterns.find((x) => x.re.test(p))?.op;
}

function analyse(
  model: ServiceModel,
  arrivals: Arrival[],
): { ops: OpPacing[]; unattributed: number } {
  const of = attribute(model);
  const byOp = new Map<Operation, number[]>();
  let unattributed = 0;
  for (const a of arrivals) {
    const op = of(a.path);
    if (!op) {
      unattributed++;
      continue;
    }
    const list = byOp.get(op) ?? [];
    list.push(a.t);
    byOp.set(op, list);
  }
  const ops: OpPacing[] = [];
  for (const [op, times] of byOp) {
    times.sort((a, b) => a - b);
    const w = op.rateLimit.windowMs;
    const limit = Math.max(1, op.rateLimit.limit);
    let maxInWindow = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= w) j++;
      maxInWindow = Math.max(maxInWindow, i - j + 1);
    }
    const n = times.length;
    const span = (times[n - 1] as number) - (times[0] as number);
    const ideal = Math.floor((n - 1) / limit) * w;
    ops.push({
      id: op.id,
      limit: `${op.rateLimit.limit}/${op.rateLimit.per}`,
      n,
      maxInWindow,
      allowed: limit,
      ...(n > limit && span > 0 ? { efficiency: ideal / span } : {}),
    });
  }
  ops.sort((a, b) => a.id.localeCompare(b.id));
  return { ops, unattributed };
}

async function arrivalsOf(admin: string): Promise<Arrival[]> {
  return (await (await fetch(`${admin}/arrivals`)).json()) as Arrival[];
}

/** Saturated phase: `windows` windows' worth of requests (+1) queued at once per chosen operation. */
async function saturate(
  model: ServiceModel,
  baseUrl: string,
  windows: number,
): Promise<Operation[]> {
  const { LocalScheduler, RemoteScheduler, serveScheduler } =
    await import('../contract-tests/scheduler.ts');
  const { createTransport } = await import('../contract-tests/http.ts');
  const chosen: Operation[] = [];
  for (const op of model.operations)
    if (
      op.method === 'get' &&
      op.rateLimit.per === 'second' &&
      !chosen.some((c) => c.rateLimit.limit === op.rateLimit.limit)
    )
      chosen.push(op);
  const scheduler = new LocalScheduler();
  const served = await serveScheduler(scheduler);
  try {
    const config = {
      baseUrl,
      appkey: 'mock-appkey',
      timeoutMs: 10_000,
      allowWrites: false,
      maxRetries: 3,
      maxRetryWaitMs: 30_000,
      schedulerUrl: served.url,
    };
    // Two "workers", as vitest runs files in parallel: both draw from the one served scheduler.
    const workers = [0, 1].map(() => createTransport(config, new RemoteScheduler(served.url)));
    const sends: Promise<unknown>[] = [];
    for (const op of chosen) {
      const n = windows * op.rateLimit.limit + 1;
      for (let i = 0; i < n; i++)
        sends.push(
          workers[i % 2]!.send(op, {
            method: 'GET',
            pathAndQuery: `${op.path}?appkey=mock-appkey`,
            headers: {},
            purpose: 'pacing benchmark',
            parameters: [],
          }),
        );
    }
    await Promise.all(sends);
  } finally {
    await served.close();
  }
  return chosen;
}

function table(ops: OpPacing[]): string {
  return [
    '| operation | declared limit | requests | most in any window | within limit | pacing efficiency |',
    '| --- | --- | ---: | ---: | --- | ---: |',
    ...ops.map(
      (o) =>
        `| ${o.id} | ${o.limit} | ${fmtInt(o.n)} | ${o.maxInWindow} | ${o.maxInWindow <= o.allowed ? 'yes' : '**no**'} | ${
          o.efficiency !== undefined
            ? `${Math.round(o.efficiency * 100)}%`
            : '– (fits in one window)'
        } |`,
    ),
  ].join('\n');
}

export async function livePacing(ctx: BenchContext): Promise<Section> {
  for (const p of [
    'generated/mock/index.ts',
    'generated/contract-tests',
    'contract-tests/runner.ts',
  ])
    if (!existsSync(path.join(ctx.root, p))) throw new Error(`${p} is missing`);
  const { model } = (await import('../generated/model.ts')) as { model: ServiceModel };
  let recorder: RunningServer | undefined;
  try {
    ctx.log('pacing: starting the recording server');
    recorder = await startServer(
      'recorder',
      process.execPath,
      ['--import', 'tsx', 'bench/servers/recorder.ts'],
      { cwd: ctx.root },
    );
    const admin = /ADMIN (\S+)/.exec(recorder.output())?.[1];
    if (!admin) throw new Error('the recorder did not print its admin address');

    ctx.log('pacing: whole suite against the recorder');
    const results = path.relative(ctx.root, path.join(ctx.work, 'pacing-results.json'));
    const argv = [
      'bin/dataapi.js',
      'contract',
      '--base-url',
      recorder.url,
      '--allow-writes',
      '--reporter',
      'dot',
      '--results',
      results,
    ];
    const suite = await timed(process.execPath, argv, {
      cwd: ctx.root,
      env: { ...process.env, DATAAPI_APPKEY: 'mock-appkey' },
      timeoutMs: 10 * 60_000,
    });
    const suiteLine = `${suiteSummary(suite.output) ?? 'no summary printed'} (exit code ${suite.code})`;
    const whole = analyse(model, await arrivalsOf(admin));

    const windows = ctx.quick ? 2 : 3;
    ctx.log(`pacing: saturated, ${windows} windows of work per operation`);
    const chosen = await saturate(model, recorder.url, windows);
    const saturated = analyse(model, await arrivalsOf(admin));

    const all = [...whole.ops, ...saturated.ops];
    const over = all.filter((o) => o.maxInWindow > o.allowed);
    const effs = saturated.ops.map((o) => o.efficiency).filter((e): e is number => e !== undefined);
    const minEff = effs.length ? Math.min(...effs) : Number.NaN;
    const verdicts: Verdict[] = [
      {
        target:
          'pacing: every operation at or under its declared limit (whole suite and saturated)',
        measured:
          over.length === 0
            ? 'no window over'
            : `${over.length} operation(s) over: ${over.map((o) => o.id).join(', ')}`,
        met: over.length === 0,
      },
      {
        target: 'pacing: >= 90% of the limit with enough work (saturated)',
        measured: Number.isFinite(minEff) ? `${Math.round(minEff * 100)}% (lowest)` : '–',
        met: Number.isFinite(minEff) ? minEff >= 0.9 : undefined,
      },
    ];
    const minute = model.operations.filter((o) => o.rateLimit.per !== 'second');
    return {
      id: 'pacing',
      title: '7. Live pacing of the contract runner',
      body: [
        "The target is `bench/servers/recorder.ts`: dataapi's mock (its own rate limiting off, so going too fast would not be hidden by 429s) behind a plain HTTP server that records each request's arrival time, in its own process. Each request is counted against the operation whose declared path it starts with (preview `/demo` variants and method/path probes count against their operation, as the runner's scheduler counts them).",
        '',
        `**Whole suite** (\`DATAAPI_APPKEY=mock-appkey node ${argv.join(' ').replace(recorder.url, '<recorder>')}\`): ${suiteLine}.${
          whole.unattributed
            ? ` ${whole.unattributed} request(s) matched no declared path (the runner's reachability check of the base URL).`
            : ''
        } The suite sends few requests per operation, so most fit in one window; efficiency is shown where they do not.`,
        '',
        table(whole.ops),
        '',
        over.length
          ? "**Why a window can hold more than the limit**: the arrival time is what a server's limiter counts, but the runner's scheduler (`contract-tests/scheduler.ts`) stamps a slot when it *grants* it (plus a 25 ms margin). Between the grant in the runner and the arrival at the server lie the grant's trip back to the vitest worker over loopback and the worker's own event loop (module loading, Ajv compilation, other tests, a first connection). When an earlier request of a window is delayed by more than the margin more than a later one, both land inside one window as the server sees it. Stamping the slot when the response arrives (an upper bound of the server's arrival time) instead of at the grant rules this out whatever the delays."
          : '',
        '',
        `**Saturated**: ${windows} windows' worth of requests plus one queued at once for ${chosen
          .map((o) => `${o.id} (${o.rateLimit.limit}/${o.rateLimit.per})`)
          .join(
            ' and ',
          )}, through the runner's transport (\`contract-tests/http.ts\`) and its scheduler served over loopback to two workers. Efficiency 100% means the requests arrived in the fewest whole windows the limit allows; the scheduler keeps a 10 ms margin per window (\`PACING_MARGIN_MS\` in runtime/shared/pacing.ts, the client's too), so about 99% is its ceiling on a one-second limit.`,
        '',
        table(saturated.ops),
        '',
        minute.length
          ? `Not saturated: ${minute.map((o) => `${o.id} (${o.rateLimit.limit}/${o.rateLimit.per})`).join(', ')}: filling its window takes minutes; the whole-suite phase checks it stays under its limit.`
          : '',
        '',
        'Reproduce: `npm run bench -- --only pacing`.',
      ].join('\n'),
      verdicts,
    };
  } finally {
    await recorder?.stop();
  }
}
