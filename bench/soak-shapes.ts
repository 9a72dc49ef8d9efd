/**
 * A probe for the soak run's speed (not part of `npm run bench`): the soak's shapes one at a
 * time, a few thousand exchanges each, through `dataapi proxy` (built dist/, its own process) and
 * straight to the soak's upstream, with the wall time and the CPU time of each party: the load
 * generator (this process), the proxy's threads one by one, the upstream. CPU far below wall time
 * means a stall, not work. Run as
 *   node --import tsx bench/soak-shapes.ts [exchanges per shape] [shape,...] [connections]
 * Each thread is shown as `run+wait` ms per exchange: on a core, and runnable but waiting for one
 * (the machine's other work). Wall time well above the critical path's run+wait is a stall.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { alteredGet } from './lib/soak-digest.ts';
import { startServer } from './lib/servers.ts';

const count = Number(process.argv[2] ?? 2000);
const shapes = (process.argv[3] ?? 'plain,gzip,chunked,large').split(',');
const CONCURRENCY = Number(process.argv[4] ?? 4);
const root = path.resolve(import.meta.dirname, '..');

/**
 * Seconds each thread of a process spent on a core and waiting for one (runnable, but the
 * machine's other work had the cores: /proc/.../schedstat), by thread id and name.
 */
async function threadCpu(pid: number): Promise<Map<string, { run: number; wait: number }>> {
  const out = new Map<string, { run: number; wait: number }>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const dir = `/proc/${pid}/task/${tid}`;
    const name = (await readFile(`${dir}/comm`, 'utf8').catch(() => '?')).trim();
    const [run, wait] = (await readFile(`${dir}/schedstat`, 'utf8').catch(() => '0 0'))
      .split(' ')
      .map((n) => Number(n) / 1e9);
    out.set(`${tid === String(pid) ? 'main' : tid} ${name}`, { run: run!, wait: wait! });
  }
  return out;
}

/** Each thread's run and wait between two readings, ms per exchange, the busy ones. */
function threadsBetween(
  a: Map<string, { run: number; wait: number }>,
  b: Map<string, { run: number; wait: number }>,
): string {
  return [...b]
    .map(([k, v]) => [k, v.run - (a.get(k)?.run ?? 0), v.wait - (a.get(k)?.wait ?? 0)] as const)
    .filter(([, run]) => run > 0.005)
    .map(([k, run, wait]) => `${k} ${ms(run)}+${ms(wait)}`)
    .join(', ');
}

const upstream = await startServer(
  'soak upstream',
  process.execPath,
  ['--import', 'tsx', 'bench/servers/soak-upstream.ts'],
  { cwd: root },
);
const reports = await mkdtemp(path.join(os.tmpdir(), 'soak-shapes-'));
const proxy = spawn(
  process.execPath,
  [
    ...(process.env.PROXY_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    process.env.PROXY_BIN ?? 'bin/dataapi.js',
    'proxy',
    '--upstream',
    upstream.url,
    '--port',
    '0',
    '--report-dir',
    reports,
  ],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
let findings = 0;
// PROXY_LOG=FILE keeps the proxy's output (e.g. with PROXY_NODE_ARGS=--trace-gc).
const log = process.env.PROXY_LOG ? createWriteStream(process.env.PROXY_LOG) : undefined;
const base = await new Promise<string>((resolve) => {
  createInterface({ input: proxy.stdout! }).on('line', (line) => {
    log?.write(`${line}\n`);
    const url = /dataapi proxy: (http:\/\/\S+) ->/.exec(line)?.[1];
    if (url) resolve(url);
    if (/^[✗!] /.test(line)) findings++;
  });
});

async function run(target: string, shape: string): Promise<{ seconds: number; altered: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let altered = 0;
  let next = 0;
  const one = async () => {
    const url = `${target}/Weather/AirQuality?location=x&appkey=soak-key-0123456789&shape=${shape}`;
    if (await alteredGet(url, agent)) altered++;
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < count) await one();
    }),
  );
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, altered };
}

const ms = (s: number) => ((s * 1000) / count).toFixed(3);
for (const shape of shapes) {
  for (const [label, target] of [
    ['direct', upstream.url],
    ['proxy', base],
  ] as const) {
    // PROXY_ONLY=1: the proxy's runs alone (comparing two builds of it).
    if (label === 'direct' && process.env.PROXY_ONLY) continue;
    const self0 = await threadCpu(process.pid);
    const up0 = await threadCpu(upstream.pid);
    const px0 = await threadCpu(proxy.pid!);
    const { seconds, altered } = await run(target, shape);
    const self = await threadCpu(process.pid);
    const up = await threadCpu(upstream.pid);
    const px = await threadCpu(proxy.pid!);
    process.stdout.write(
      `${shape.padEnd(8)} ${label.padEnd(6)} ${(count / seconds).toFixed(0).padStart(6)}/s ` +
        `wall ${ms(seconds)} ms/ex; run+wait ms/ex: loadgen [${threadsBetween(self0, self)}], ` +
        `upstream [${threadsBetween(up0, up)}]` +
        (label === 'proxy' ? `, proxy [${threadsBetween(px0, px)}]` : '') +
        `; altered ${altered}\n`,
    );
  }
}
process.stdout.write(`findings printed by the proxy: ${findings}\n`);
const exited = new Promise((r) => proxy.once('exit', r));
proxy.kill('SIGTERM');
await exited;
await upstream.stop();
