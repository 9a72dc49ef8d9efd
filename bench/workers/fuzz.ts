/**
 * The fuzzing benchmark's measuring process (bench/fuzz.ts runs it fresh): the service's generated
 * mock in-process on 127.0.0.1 (rate limiting off), the contract runtime's transport with a
 * scheduler that never waits (pacing is the target's limit, not the toolkit's speed), and:
 *
 * - the fixed suite's requests per second (runProbes over every operation): the reference;
 * - fuzzing's generated requests per second (fuzzOperation, --fuzz BENCH_FUZZ, no failure);
 * - the time to shrink: getAirQuality with a planted bug (a 500 when the city holds a comma),
 *   the same run with and without it; the difference is the shrinking.
 *
 * Prints one JSON line: {"results": ...}.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { createMockServer } from '../../generated/mock/index.ts';
import { model as generated } from '../../generated/model.ts';
import type { ContractConfig } from '../../contract-tests/config.ts';
import { fuzzOperation } from '../../contract-tests/fuzz/run.ts';
import { createTransport } from '../../contract-tests/http.ts';
import { runProbes } from '../../contract-tests/probes.ts';
import type { Grant, Scheduler } from '../../contract-tests/scheduler.ts';

const model = generated as ServiceModel;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FUZZ = Number(process.env.BENCH_FUZZ ?? 50);
const KEY = 'bench-fuzz-key-4b2e';

/** Grants every request at once and counts them. */
class Unpaced implements Scheduler {
  requests = 0;
  private seq = 0;
  acquire(): Promise<Grant> {
    this.requests++;
    return Promise.resolve({ ok: true, token: ++this.seq });
  }
  release(): void {}
  mayRetry(): boolean {
    return false;
  }
}

async function serve(buggy: boolean) {
  const app = await createMockServer({
    appkeys: [KEY],
    rateLimit: false,
    logger: false,
    invalidExamples: 'skip',
    ...(buggy
      ? {
          handlers: {
            getAirQuality: async (input: { query: Record<string, unknown> }) => {
              if (String(input.query['city'] ?? '').includes(',')) throw new Error('planted');
              return [];
            },
          },
        }
      : {}),
  } as never);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

function transport(url: string, scheduler: Unpaced, seed: number) {
  const config: ContractConfig = {
    baseUrl: url,
    appkey: KEY,
    timeoutMs: 10_000,
    allowWrites: true,
    maxRetries: 0,
    maxRetryWaitMs: 0,
    fuzz: { runs: FUZZ, seed },
  };
  return createTransport(config, scheduler);
}

/** The fixed suite's requests per second over every operation (main variant). */
async function fixedPass(url: string): Promise<number> {
  const scheduler = new Unpaced();
  const t = transport(url, scheduler, 1);
  const started = performance.now();
  for (const op of model.operations) await runProbes(model, op, 'main', t);
  return (scheduler.requests / (performance.now() - started)) * 1000;
}

/** Generated requests per second alone: the fixed probes are sent first, outside the clock. */
async function fuzzPass(
  url: string,
  seed: number,
): Promise<{ perSecond: number; requests: number }> {
  const scheduler = new Unpaced();
  const t = transport(url, scheduler, seed);
  let ms = 0;
  let requests = 0;
  for (const op of model.operations) {
    const set = await runProbes(model, op, 'main', t);
    const before = scheduler.requests;
    const started = performance.now();
    await fuzzOperation(model, op, set, t, t.config.fuzz!);
    ms += performance.now() - started;
    requests += scheduler.requests - before;
  }
  return { perSecond: (requests / ms) * 1000, requests };
}

async function fuzzOne(url: string, op: Operation, seed: number) {
  const scheduler = new Unpaced();
  const t = transport(url, scheduler, seed);
  const set = await runProbes(model, op, 'main', t);
  const started = performance.now();
  await fuzzOperation(model, op, set, t, t.config.fuzz!);
  return { ms: performance.now() - started, stats: set.fuzz!, probes: set.probes };
}

const clean = await serve(false);
const buggy = await serve(true);
const air = model.operations.find((o) => o.id === 'getAirQuality')!;
const results = {
  fuzz: FUZZ,
  fixedPerSecond: [] as number[],
  fuzzPerSecond: [] as number[],
  generated: 0,
  shrink: [] as { ms: number; requests: number; found: string }[],
};
try {
  await fixedPass(clean.url); // warm-up
  for (let r = 0; r < RUNS; r++) {
    results.fixedPerSecond.push(await fixedPass(clean.url));
    const f = await fuzzPass(clean.url, 1 + r);
    results.fuzzPerSecond.push(f.perSecond);
    results.generated = f.requests;
  }
  for (let r = 0; r < RUNS; r++) {
    const seed = 42 + r;
    const without = await fuzzOne(clean.url, air, seed);
    const withBug = await fuzzOne(buggy.url, air, seed);
    const found = withBug.probes.find((p) => p.fuzz)?.fuzz;
    results.shrink.push({
      ms: withBug.ms - without.ms,
      requests: withBug.stats.shrinkRequests,
      found: found ? JSON.stringify(found.request.query) : 'nothing',
    });
  }
} finally {
  await clean.close();
  await buggy.close();
}
process.stdout.write(`${JSON.stringify({ results })}\n`);
