/**
 * Side-by-side timing of cold commands: warm-up rounds, then measured rounds in which the
 * contenders take turns (A B C, A B C, ...), so a burst of load from another process on the
 * machine hits all of them alike instead of one contender's whole series.
 */
import path from 'node:path';
import { mkdir, rm } from 'node:fs/promises';
import type { BenchContext } from './context.ts';
import { ensureOk, timed, type TimedRun } from './proc.ts';
import { fmtMiB, fmtMs, fmtRatio, maxOf, median, minOf } from './stats.ts';

export interface Contender {
  label: string;
  /** Program and arguments, relative to the project root, as a reader would type them. */
  argv: string[];
  /** Working directory relative to the project root (default: the root). */
  cwd?: string;
  /** Folders or files removed before every run (not timed): what makes the run cold. */
  clean?: string[];
  /**
   * Shown for reference only: when it fails, its row says why and the others are still
   * measured (a reference tool broken by its own dependencies must not hide the targets).
   */
  optional?: boolean;
}

export interface Measured {
  contender: Contender;
  runs: TimedRun[];
  medianMs: number;
  /** Median CPU time (user + system), NaN without GNU time. */
  cpuMs: number;
  maxRssKb: number;
  /** The generator's own time printed by `dataapi generate` (excludes process start), if any. */
  selfMs?: number;
  /** Why an optional contender could not run (it has no runs then). */
  failed?: string;
}

const BIN: Record<string, string> = {
  'openapi-typescript': 'node_modules/.bin/openapi-typescript',
  tsc: 'node_modules/.bin/tsc',
  'openapi-ts': 'bench/node_modules/.bin/openapi-ts',
  prism: 'bench/node_modules/.bin/prism',
};

export const displayCommand = (argv: string[]) =>
  (argv[0] !== undefined && argv[0] in BIN ? 'npx ' : '') +
  argv.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ');

async function runOnce(ctx: BenchContext, c: Contender): Promise<TimedRun> {
  for (const p of c.clean ?? [])
    await rm(path.resolve(ctx.root, p), { recursive: true, force: true });
  const [program, ...args] = c.argv as [string, ...string[]];
  const file =
    program === 'node' ? process.execPath : path.resolve(ctx.root, BIN[program] ?? program);
  const cwd = path.resolve(ctx.root, c.cwd ?? '.');
  await mkdir(cwd, { recursive: true });
  return ensureOk(c.label, await timed(file, args, { cwd, timeoutMs: 15 * 60_000 }));
}

export async function sideBySide(
  ctx: BenchContext,
  contenders: Contender[],
  options: { warmup?: number; runs?: number } = {},
): Promise<Measured[]> {
  const warmup = options.warmup ?? ctx.warmup;
  const runs = options.runs ?? ctx.runs;
  const failed = new Map<Contender, string>();
  // An optional contender that fails is left out of the later rounds; any other fails the whole.
  const attempt = async (c: Contender): Promise<TimedRun | undefined> => {
    if (failed.has(c)) return undefined;
    try {
      return await runOnce(ctx, c);
    } catch (err) {
      if (!c.optional) throw err;
      const reason = String((err as Error).message ?? err);
      failed.set(c, reason);
      ctx.log(`  ${c.label} could not run (left out): ${reason.slice(0, 400)}`);
      return undefined;
    }
  };
  for (let w = 0; w < warmup; w++)
    for (const c of contenders) {
      ctx.log(`  warm-up ${c.label}`);
      await attempt(c);
    }
  const results = new Map<Contender, TimedRun[]>(contenders.map((c) => [c, []]));
  for (let r = 0; r < runs; r++)
    for (const c of contenders) {
      const run = await attempt(c);
      if (!run) continue;
      ctx.log(
        `  run ${r + 1}/${runs} ${c.label}: ${fmtMs(run.ms)}, max RSS ${fmtMiB(run.maxRssKb)}`,
      );
      results.get(c)!.push(run);
    }
  return contenders.map((contender) => {
    const list = results.get(contender)!;
    const self = list
      .map((r) => /in ([\d.]+)s\b/.exec(r.output)?.[1])
      .filter((s): s is string => s !== undefined)
      .map((s) => Number(s) * 1000);
    return {
      contender,
      runs: list,
      medianMs: median(list.map((r) => r.ms)),
      cpuMs: median(list.map((r) => r.cpuMs ?? Number.NaN)),
      maxRssKb: maxOf(list.map((r) => r.maxRssKb ?? Number.NaN)),
      ...(self.length === list.length && self.length > 0 ? { selfMs: median(self) } : {}),
      ...(failed.has(contender) ? { failed: failed.get(contender)! } : {}),
    };
  });
}

/** A markdown table of measured contenders, with the ratio of each to `baseline`'s median. */
export function timingTable(measured: Measured[], baseline: string): string {
  const b = measured.find((m) => m.contender.label === baseline);
  const base = b?.medianMs ?? Number.NaN;
  const baseCpu = b?.cpuMs ?? Number.NaN;
  const rows = measured.map((m) => {
    if (m.failed !== undefined)
      return `| ${m.contender.label} | could not run: ${failureLine(m.failed)} | | | | | | |`;
    const times = m.runs.map((r) => r.ms);
    return `| ${m.contender.label} | ${fmtMs(m.medianMs)} | ${fmtMs(minOf(times))} – ${fmtMs(maxOf(times))} | ${
      m.selfMs !== undefined ? fmtMs(m.selfMs) : '–'
    } | ${fmtMs(m.cpuMs)} | ${fmtMiB(m.maxRssKb)} | ${fmtRatio(m.medianMs / base)} | ${fmtRatio(
      m.cpuMs / baseCpu,
    )} |`;
  });
  return [
    `| tool | median wall | min – max | own time¹ | CPU time² | max RSS | wall vs ${baseline} | CPU vs ${baseline} |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

/** The telling line of a failed command's output (its error), for a table cell. */
function failureLine(message: string): string {
  const lines = message.split('\n').map((l) => l.trim());
  const error = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] ?? '';
  return error.replace(/\|/g, '\\|').slice(0, 200);
}

export function commandList(measured: Measured[]): string {
  return measured
    .map((m) => {
      const clean = m.contender.clean?.length ? `rm -rf ${m.contender.clean.join(' ')} && ` : '';
      const cmd = displayCommand(m.contender.argv);
      return `- ${m.contender.label}: \`${clean}${m.contender.cwd ? `(cd ${m.contender.cwd} && ${cmd})` : cmd}\``;
    })
    .join('\n');
}

export const OWN_TIME_NOTE = [
  '¹ own time: the time `dataapi generate` prints for itself (load to write, without process start-up).',
  "² CPU time: user + system time of the process and all its threads (GNU time), median. Other processes competing for the cores stretch wall time but hardly CPU time, so the CPU ratio shows whether a wall ratio moved because of them; it is not the wall ratio of an idle machine, since threads beside the main one (tsx's loader, the garbage collector) run in parallel there. The targets are judged on wall time.",
].join('  \n');
