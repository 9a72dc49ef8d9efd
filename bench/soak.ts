/**
 * The proxy's soak run (not part of `npm test`): a million exchanges in mixed shapes (plain JSON,
 * gzip, chunked, a 200 kB list, and one in a thousand with a planted wrong business code) through
 * `dataapi proxy` in its own process, with its resident memory sampled as it goes. Checked: the
 * memory stays flat (the last tenth of the samples within 10% of the first tenth) and under
 * 300 MiB, no byte of a body or an end-to-end header altered, every planted violation reported
 * exactly once. The load is paced, 300 exchanges per second (SOAK_RATE: another pace): the proxy
 * forwards faster than its judging thread judges a 200 kB list, so a closed loop fills the judging
 * queue and exchanges (planted ones among them) pass unjudged by design; a soak is about what a
 * sustained load does to memory and bytes, §12 about the most the proxy carries. At 300 per second
 * on a quiet machine every exchange was judged (30,000 of 30,000); beside other jobs on the same
 * cores it was not. When the judges fall behind, the proxy says so once a second, and the log
 * shows how far the load had come.
 * The first exchanges warm the process up (code compiled, pools filled) and are not sampled.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchContext, Section } from './lib/context.ts';
import { alteredGet } from './lib/soak-digest.ts';
import { startServer } from './lib/servers.ts';
import { trafficOf } from './proxy-large.ts';

const SHAPES = ['plain', 'gzip', 'chunked', 'large'];
const EVERY = 1000;
const CONCURRENCY = 4;
const WARM_UP = 5_000;

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function proxySoak(ctx: BenchContext): Promise<Section> {
  // SOAK_EXCHANGES: another count, to look at the memory's course without the whole run.
  const total = Number(process.env.SOAK_EXCHANGES) || (ctx.quick ? 50_000 : 1_000_000);
  const rate = Number(process.env.SOAK_RATE) || 300;
  const warmUp = Math.min(WARM_UP, Math.floor(total / 20));
  const upstream = await startServer(
    'soak upstream',
    process.execPath,
    ['--import', 'tsx', 'bench/servers/soak-upstream.ts'],
    { cwd: ctx.root },
  );
  const reports = path.join(ctx.work, 'soak-reports');
  const proxy = spawn(
    process.execPath,
    ['bin/dataapi.js', 'proxy', '--upstream', upstream.url, '--port', '0', '--report-dir', reports],
    { cwd: ctx.root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const reported = new Map<number, number>();
  let next = 0;
  let other = 0;
  const listening = new Promise<string>((resolve) => {
    createInterface({ input: proxy.stdout! }).on('line', (line) => {
      const url = /dataapi proxy: (http:\/\/\S+) ->/.exec(line)?.[1];
      if (url) resolve(url);
      // When judging falls behind, and how far the load had come: the proxy says it once a second.
      if (line.includes('the judges are behind')) ctx.log(`soak: at exchange ${next}: ${line}`);
      if (!/^[✗!] /.test(line)) return;
      const inj = /[?&]inj=(\d+)/.exec(line)?.[1];
      if (inj === undefined) other++;
      else reported.set(Number(inj), (reported.get(Number(inj)) ?? 0) + 1);
    });
  });
  const base = await listening;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const samples: number[] = [];
  let altered = 0;
  const injected: number[] = [];
  const started = performance.now();
  const one = async (i: number) => {
    const query = i % EVERY === EVERY - 1 ? `inj=${i}` : `shape=${SHAPES[i % SHAPES.length]}`;
    if (query.startsWith('inj')) injected.push(i);
    const url = `${base}/Weather/AirQuality?location=x&appkey=soak-key-0123456789&${query}`;
    if (await alteredGet(url, agent)) altered++;
  };
  const step = Math.max(1, Math.floor((total - warmUp) / 200));
  // Exchange i starts no earlier than i / rate seconds in: an even pace, not bursts.
  const paced = (i: number) => {
    const wait = started + (i * 1000) / rate - performance.now();
    return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : undefined;
  };
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        await paced(i);
        await one(i);
        if (i >= warmUp && (i - warmUp) % step === 0) samples.push(await rssMiB(proxy.pid!));
        if (i % (total / 10) === 0) ctx.log(`soak: ${i} of ${total}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const exited = new Promise((r) => proxy.once('exit', r));
  proxy.kill('SIGTERM');
  await exited;
  await upstream.stop();
  const traffic = await trafficOf(reports);
  const tenth = Math.max(1, Math.floor(samples.length / 10));
  const first = mean(samples.slice(0, tenth));
  const last = mean(samples.slice(-tenth));
  const peak = Math.max(...samples);
  const tenths = Array.from({ length: 10 }, (_, k) =>
    mean(samples.slice(k * tenth, (k + 1) * tenth)),
  );
  ctx.log(`soak: resident memory by tenth (MiB): ${tenths.map((m) => m.toFixed(0)).join(' ')}`);
  const once = injected.filter((i) => reported.get(i) === 1).length;
  const twice = [...reported.values()].filter((n) => n > 1).length;
  return {
    id: 'soak',
    title: '15. Validation proxy soak run',
    body: [
      `${total.toLocaleString('en')} exchanges through \`dataapi proxy\` (its own process) in ${seconds.toFixed(0)} s (${Math.round(total / seconds).toLocaleString('en')} per second, paced at ${rate} per second), ${CONCURRENCY} keep-alive connections, shapes in turn: plain JSON, gzip, chunked in four pieces, a 200 kB list; one in ${EVERY} with a planted wrong business code (\`bench/servers/soak-upstream.ts\`, its own process). Every answer carries the SHA-256 of its body and of its end-to-end headers; the load generator compares them with what it received.`,
      '',
      `Resident memory of the proxy (VmRSS, ${samples.length} samples after the first ${warmUp.toLocaleString('en')} exchanges, which warm it up): first tenth ${first.toFixed(0)} MiB, last tenth ${last.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB. Altered answers: ${altered}. Planted violations: ${injected.length}, reported once: ${once}, more than once: ${twice}; other findings: ${other}. Judged ${traffic.judged} of ${traffic.exchanges} exchanges (${traffic.overloaded} passed through unjudged while the judges were behind).`,
      '',
      'Reproduce: `npm run bench -- --only soak` (`--quick`: 50,000 exchanges; `SOAK_RATE=N`: another pace).',
    ].join('\n'),
    verdicts: [
      {
        target: 'soak: resident memory flat (last tenth within 10% of the first) and under 300 MiB',
        measured: `${first.toFixed(0)} -> ${last.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`,
        met: last <= first * 1.1 && peak < 300,
      },
      { target: 'soak: 0 altered bytes', measured: String(altered), met: altered === 0 },
      {
        target: 'soak: every planted violation reported once',
        measured: `${once} of ${injected.length} once, ${twice} more than once, ${other} other findings`,
        met: once === injected.length && twice === 0 && other === 0,
      },
    ],
  };
}
