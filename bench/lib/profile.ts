/**
 * Where a command's CPU time goes: run it once under `node --cpu-prof` and sum the samples' self
 * time by package (node_modules/<name>), project folder or runtime category. Used to explain a
 * missed generation target in BENCHMARKS.md from the run itself rather than from a stale note.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ensureOk, timed } from './proc.ts';

interface CpuProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

function bucketOf(url: string, fn: string, root: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('file://') || url.startsWith('/')) {
    const rel = path.relative(root, url.replace(/^file:\/\//, ''));
    if (!rel.startsWith('..')) return `${rel.split(path.sep).slice(0, 2).join('/')} (project)`;
  }
  if (url.startsWith('node:')) return 'node: module loading and built-ins';
  return fn ? `(${fn.replace(/[()]/g, '')})` : '(native)';
}

/**
 * Self time per bucket (ms), largest first, summed over every thread's profile (the main thread,
 * tsx's loader, any worker the generator starts), with each thread's busy time.
 */
export async function profileByPackage(
  root: string,
  argv: string[],
  dir: string,
): Promise<{ total: number; threads: number[]; rows: [string, number][] }> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  ensureOk(
    'profiled run',
    await timed(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...argv], { cwd: root }),
  );
  const buckets = new Map<string, number>();
  const threads: number[] = [];
  for (const file of (await readdir(dir)).sort()) {
    const p = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    let busy = 0;
    p.samples.forEach((id, i) => {
      const node = byId.get(id);
      const us = p.timeDeltas[i] ?? 0;
      if (!node || node.callFrame.functionName === '(idle)') return;
      const key = bucketOf(node.callFrame.url, node.callFrame.functionName, root);
      buckets.set(key, (buckets.get(key) ?? 0) + us / 1000);
      busy += us / 1000;
    });
    threads.push(busy);
  }
  const rows = [...buckets].sort((a, b) => b[1] - a[1]);
  return { total: threads.reduce((a, b) => a + b, 0), threads, rows };
}

export function profileTable(
  profile: { total: number; rows: [string, number][] },
  top = 10,
): string {
  const shown = profile.rows.slice(0, top);
  const rest = profile.rows.slice(top).reduce((a, [, ms]) => a + ms, 0);
  return [
    '| where (self time) | ms | share |',
    '| --- | ---: | ---: |',
    ...shown.map(
      ([k, ms]) => `| ${k} | ${Math.round(ms)} | ${Math.round((ms / profile.total) * 100)}% |`,
    ),
    `| everything else | ${Math.round(rest)} | ${Math.round((rest / profile.total) * 100)}% |`,
  ].join('\n');
}
