/**
 * What the load benchmarks (mock, serve, proxy) share: the air-quality request, starting the
 * usual servers (the generated mock, a bare Fastify route sending captured bytes, Prism), checking
 * each answers before the load, and the load table itself.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext } from './context.ts';
import { LOAD_TABLE_HEAD, loadInTurns, loadNotes, loadRow, type LoadSummary } from './load.ts';
import { freePort, startServer, type RunningServer } from './servers.ts';

export const AIR_QUALITY = '/Weather/AirQuality?city=Beijing&appkey=mock-appkey';

/** Seconds per load run: shorter in a quick run. */
export const loadSeconds = (ctx: BenchContext) => (ctx.quick ? 2 : 5);

export function requireGeneratedMock(ctx: BenchContext): void {
  if (!existsSync(path.join(ctx.root, 'generated/mock/index.ts')))
    throw new Error('generated/mock/index.ts is missing: run `node bin/dataapi.js generate` first');
}

/** The generated mock in its own process (`bench/servers/mock.ts`, rate limits and logging off). */
export const startMock = (ctx: BenchContext, label: string) =>
  startServer(label, process.execPath, ['--import', 'tsx', 'bench/servers/mock.ts'], {
    cwd: ctx.root,
  });

/** A server's answer to `GET url`, failing the benchmark unless it is 200. */
export async function sampleAnswer(
  server: RunningServer,
  request: string,
): Promise<{ text: string; contentType: string }> {
  const res = await fetch(server.url + request);
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`${server.label} answered ${res.status} to ${request}: ${text.slice(0, 300)}`);
  return { text, contentType: res.headers.get('content-type') ?? 'application/json' };
}

/** One route sending `answer`'s bytes as a prebuilt string (`bench/servers/bare.ts`): the ceiling. */
export async function startBare(
  ctx: BenchContext,
  answer: { text: string; contentType: string },
  bodyFileName: string,
): Promise<RunningServer> {
  const bodyFile = path.join(ctx.work, bodyFileName);
  await writeFile(bodyFile, answer.text);
  return startServer(
    'bare Fastify',
    process.execPath,
    ['--import', 'tsx', 'bench/servers/bare.ts'],
    {
      cwd: ctx.root,
      env: { ...process.env, BENCH_BODY_FILE: bodyFile, BENCH_CONTENT_TYPE: answer.contentType },
    },
  );
}

/** Prism (`prism <args> -h 127.0.0.1 -p <port> -v silent`), ready once `probe` answers. */
export async function startPrism(
  ctx: BenchContext,
  label: string,
  args: string[],
  probe: string,
): Promise<RunningServer> {
  const port = await freePort();
  return startServer(
    label,
    path.join(ctx.root, 'bench/node_modules/.bin/prism'),
    [...args, '-h', '127.0.0.1', '-p', String(port), '-v', 'silent'],
    { cwd: ctx.root, probe: `http://127.0.0.1:${port}${probe}`, timeoutMs: 120_000 },
  );
}

/** Equal once ISO date-times (the envelope's response time, stamped per request) are masked. */
const sameBody = (a: string, b: string) => {
  const mask = (t: string) => t.replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)/g, '<date>');
  return mask(a) === mask(b);
};

export interface LoadTable {
  /** Per server, in the order given. */
  summaries: LoadSummary[];
  /** Markdown: the answers checked before loading, the table and the notes on its columns. */
  lines: string[];
}

/**
 * Checks every server answers `request` (noting which send the same body as `reference`, dates
 * aside), loads them in turns and renders the table.
 */
export async function loadTable(
  ctx: BenchContext,
  servers: RunningServer[],
  request: string,
  reference?: { label: string; text: string },
  /** Rounds of runs in turns (default: the bench's runs). */
  rounds?: number,
): Promise<LoadTable> {
  const answers: string[] = [];
  for (const s of servers) {
    const res = await fetch(s.url + request);
    const text = await res.text();
    const same =
      reference && s.label !== reference.label && sameBody(text, reference.text)
        ? ` (the same body as the ${reference.label}, its date aside)`
        : '';
    answers.push(`- ${s.label}: HTTP ${res.status}, ${text.length} bytes${same}`);
  }
  const byServer = await loadInTurns(ctx, servers, request, loadSeconds(ctx), rounds);
  const summaries = servers.map((s) => byServer.get(s)!);
  return {
    summaries,
    lines: [
      'Answers checked before loading:',
      ...answers,
      '',
      ...LOAD_TABLE_HEAD,
      ...servers.map((s, i) => loadRow(s.label, summaries[i]!)),
      '',
      loadNotes(summaries),
    ],
  };
}

/** Runs `body` with a list its servers are added to, and stops them all, last started first. */
export async function withServers<T>(body: (servers: RunningServer[]) => Promise<T>): Promise<T> {
  const servers: RunningServer[] = [];
  try {
    return await body(servers);
  } finally {
    for (const s of servers.reverse()) await s.stop();
  }
}
