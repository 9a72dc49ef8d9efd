/**
 * Generation benchmarks (issue 9, items 1 and 3; issue 17): dataapi against openapi-typescript
 * (and @hey-api/openapi-ts for reference) on the same input, each a cold process. GitHub's
 * description has its own module (github.ts).
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import {
  OWN_TIME_NOTE,
  commandList,
  sideBySide,
  timingTable,
  type Contender,
  type Measured,
} from './lib/side-by-side.ts';
import { fmtMiB, fmtMs, fmtRatio } from './lib/stats.ts';
import { synthSpec } from './synth.ts';
import { profileByPackage, profileTable } from './lib/profile.ts';

/** The `n` largest files under `dir`, as "name (size)" text. */
async function largestFiles(dir: string, n: number): Promise<string> {
  const found: [string, number][] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else found.push([path.relative(dir, p), (await stat(p)).size]);
    }
  };
  await walk(dir);
  return found
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([f, size]) => `\`${f}\` (${(size / 2 ** 20).toFixed(1)} MiB)`)
    .join(', ');
}

export const SERVICE_SPEC = 'spec/openapi.yaml';
export const SYNTH_SIZES = [200, 1000, 2000];

const rel = (ctx: BenchContext, p: string) => path.relative(ctx.root, p).split(path.sep).join('/');

const dotSlash = (p: string) => (p.startsWith('.') || path.isAbsolute(p) ? p : `./${p}`);

/**
 * openapi-typescript reads redocly.yaml from its working directory, and the project's (the
 * `recommended` rules, for linting spec/openapi.yaml) rejects third-party descriptions such as
 * GitHub's. It runs from bench/.work instead, with its own default rules, the ones dataapi's
 * in-process call of openapi-typescript uses too.
 */
const OTS_CWD = 'bench/.work';
const ots = (spec: string, out: string): Contender => ({
  label: 'openapi-typescript',
  cwd: OTS_CWD,
  argv: ['openapi-typescript', `../../${spec}`, '-o', `../../${out}`],
  clean: [out],
});
const hey = (spec: string, out: string): Contender => ({
  label: '@hey-api/openapi-ts (client-fetch)',
  // `./`: openapi-ts reads a bare `a/b.yaml` as a Hey API registry shorthand (org/project).
  argv: ['openapi-ts', '-i', dotSlash(spec), '-o', out, '-c', '@hey-api/client-fetch'],
  clean: [out],
  optional: true,
});
const dataapi = (label: string, spec: string, out: string, extra: string[] = [], cold = true) => ({
  label,
  argv: ['node', 'bin/dataapi.js', 'generate', '--spec', spec, '--out', out, ...extra],
  clean: cold ? [out] : [],
});

const byLabel = (m: Measured[], label: string) =>
  m.find((x) => x.contender.label === label) as Measured;

/** 1. The service description: whole output cold, and a re-run with unchanged input. */
export async function serviceGeneration(ctx: BenchContext): Promise<Section> {
  const out = rel(ctx, path.join(ctx.work, 'gen-service'));
  ctx.log(`generation: ${SERVICE_SPEC}`);
  const rerunOut = `${out}/dataapi-rerun`;
  const contenders = [
    ots(SERVICE_SPEC, `${out}/openapi-typescript.ts`),
    hey(SERVICE_SPEC, `${out}/hey-api`),
    dataapi('dataapi, whole output, cold', SERVICE_SPEC, `${out}/dataapi-cold`),
    dataapi('dataapi, re-run, unchanged input', SERVICE_SPEC, rerunOut, [], false),
  ];
  // The re-run's folder holds the output of one earlier run (and its manifest) before timing.
  await sideBySide(ctx, [dataapi('prime', SERVICE_SPEC, rerunOut)], { warmup: 0, runs: 1 });
  const m = await sideBySide(ctx, contenders);
  const base = byLabel(m, 'openapi-typescript').medianMs;
  const cold = byLabel(m, 'dataapi, whole output, cold');
  const rerun = byLabel(m, 'dataapi, re-run, unchanged input');
  const rerunUnchanged = rerun.runs.every((r) => /\b0 written\b/.test(r.output));
  const coldRatio = cold.medianMs / base;
  const rerunRatio = rerun.medianMs / base;
  const files = /(\d+) files/.exec(cold.runs[0]?.output ?? '')?.[1] ?? '?';
  // One more cold run under the CPU profiler, to show where dataapi's time goes.
  const profOut = `${out}/dataapi-profiled`;
  await rm(path.resolve(ctx.root, profOut), { recursive: true, force: true });
  const profile = await profileByPackage(
    ctx.root,
    ['bin/dataapi.js', 'generate', '--spec', SERVICE_SPEC, '--out', profOut],
    path.join(ctx.work, 'profile-service'),
  );
  const biggest = await largestFiles(path.resolve(ctx.root, profOut), 3);
  return {
    id: 'generation-service',
    title: '1. Generating the service description',
    body: [
      `Input: \`${SERVICE_SPEC}\`. dataapi writes its whole output (every template kind, types, model; ${files} files, formatted with prettier) into an empty folder each run; the re-run writes into a folder that already holds the same output and its content-hash manifest${
        rerunUnchanged
          ? ' (every re-run reported 0 files written)'
          : ' (**a re-run rewrote files**: the manifest did not hold)'
      }. @hey-api/openapi-ts is shown for reference (its defaults: no formatter).`,
      '',
      timingTable(m, 'openapi-typescript'),
      '',
      OWN_TIME_NOTE,
      '',
      'Commands (from the project root):',
      commandList(m),
      '',
      `Where a cold dataapi run spends its CPU time (one extra run under \`node --cpu-prof\`, self time summed over its ${profile.threads.length} threads, busy ${profile.threads.map((t) => `${Math.round(t)} ms`).join(' + ')}; prettier's share includes formatting the largest outputs: ${biggest}):`,
      '',
      profileTable(profile),
    ].join('\n'),
    verdicts: [
      {
        target: 'service description, whole output cold <= 1.5x openapi-typescript',
        measured: `${fmtRatio(coldRatio)} (CPU time ${fmtRatio(cold.cpuMs / byLabel(m, 'openapi-typescript').cpuMs)})`,
        met: coldRatio <= 1.5,
      },
      {
        target: 'service description, re-run with unchanged input <= 0.3x openapi-typescript',
        measured: `${fmtRatio(rerunRatio)} (CPU time ${fmtRatio(rerun.cpuMs / byLabel(m, 'openapi-typescript').cpuMs)})`,
        met: rerunRatio <= 0.3 && rerunUnchanged,
      },
    ],
  };
}

async function warmUpOnService(ctx: BenchContext, out: string): Promise<void> {
  if (ctx.warmup === 0) return;
  ctx.log('  warm-up on the service description');
  await sideBySide(
    ctx,
    [
      ots(SERVICE_SPEC, `${out}/warmup-ots.ts`),
      hey(SERVICE_SPEC, `${out}/warmup-hey`),
      dataapi('warm-up', SERVICE_SPEC, `${out}/warmup-dataapi`),
    ],
    { warmup: 0, runs: ctx.warmup },
  );
}

/** 3. Synthetic descriptions: linear growth of time per operation and peak memory. */
export async function syntheticGeneration(ctx: BenchContext): Promise<Section> {
  const dir = path.join(ctx.work, 'gen-synth');
  await mkdir(dir, { recursive: true });
  const rows: string[] = [];
  const commands: string[] = [];
  const perOp = new Map<number, number>();
  const rss = new Map<number, number>();
  const cpuPerOp = new Map<number, number>();
  let biggestAtMax = '';
  await warmUpOnService(ctx, rel(ctx, dir));
  for (const n of SYNTH_SIZES) {
    const spec = rel(ctx, path.join(dir, `synth-${n}.json`));
    await writeFile(path.resolve(ctx.root, spec), JSON.stringify(synthSpec(n), null, 2) + '\n');
    ctx.log(`generation: synthetic ${n} operations`);
    // openapi-typescript only at the largest size: a reference point, not part of the target,
    // and the full run is long enough already.
    const withOts = n === SYNTH_SIZES.at(-1);
    const ours = dataapi(`dataapi (${n} ops)`, spec, rel(ctx, path.join(dir, `dataapi-${n}`)));
    const theirs = ots(spec, rel(ctx, path.join(dir, `ots-${n}.ts`)));
    const m = await sideBySide(ctx, withOts ? [theirs, ours] : [ours], { warmup: 0 });
    const d = byLabel(m, ours.label);
    if (withOts) biggestAtMax = await largestFiles(path.resolve(ctx.root, ours.clean[0]!), 3);
    const o = withOts ? byLabel(m, theirs.label) : undefined;
    perOp.set(n, d.medianMs / n);
    cpuPerOp.set(n, d.cpuMs / n);
    rss.set(n, d.maxRssKb);
    rows.push(
      `| ${n.toLocaleString('en-US')} | ${fmtMs(d.medianMs)} | ${(d.medianMs / n).toFixed(2)} ms | ${(
        d.cpuMs / n
      ).toFixed(2)} ms | ${
        d.selfMs !== undefined ? `${(d.selfMs / n).toFixed(2)} ms` : '–'
      } | ${fmtMiB(d.maxRssKb)} | ${o ? fmtMs(o.medianMs) : '–'} | ${o ? fmtMiB(o.maxRssKb) : '–'} | ${
        o ? fmtRatio(d.medianMs / o.medianMs) : '–'
      } |`,
    );
    commands.push(
      `- ${n}: \`npx tsx bench/synth.ts ${n} ${spec}\`, then \`rm -rf ${ours.clean[0]} && node bin/dataapi.js generate --spec ${spec} --out ${ours.clean[0]}\`${
        withOts
          ? ` and \`(cd ${OTS_CWD} && npx openapi-typescript ../../${spec} -o ../../${theirs.clean![0]})\``
          : ''
      }`,
    );
  }
  const small = perOp.get(SYNTH_SIZES[0]!)!;
  const large = perOp.get(SYNTH_SIZES[SYNTH_SIZES.length - 1]!)!;
  const growth = large / small;
  const cpuGrowth = cpuPerOp.get(SYNTH_SIZES.at(-1)!)! / cpuPerOp.get(SYNTH_SIZES[0]!)!;
  const peak = Math.max(...rss.values());
  return {
    id: 'generation-synthetic',
    title: '3. Scaling: synthetic descriptions of 200, 1,000 and 2,000 operations',
    body: [
      'Input: `bench/synth.ts` (deterministic; 5 operations per resource, each resource with its own schemas using enums, formats, ranges, nullable type arrays, `oneOf`, `allOf`, `$ref`). dataapi generates its whole output, cold. Time per operation is the median wall time (process start included, which favours small inputs) divided by the number of operations. Warm-up: each tool once on the service description.',
      '',
      `Largest files of the ${SYNTH_SIZES.at(-1)}-operation output: ${biggestAtMax}.`,
      '',
      '| operations | dataapi wall | per operation | CPU time² per op | own time per op¹ | dataapi max RSS | openapi-typescript wall | its max RSS | dataapi / openapi-typescript |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
      OWN_TIME_NOTE,
      '',
      'Commands (from the project root):',
      ...commands,
    ].join('\n'),
    verdicts: [
      {
        target: `synthetic: time per operation at ${SYNTH_SIZES.at(-1)} <= 1.5x that at ${SYNTH_SIZES[0]}`,
        measured: `${fmtRatio(growth)} (CPU time ${fmtRatio(cpuGrowth)})`,
        met: growth <= 1.5,
      },
      {
        target: 'synthetic: peak memory < 1 GiB',
        measured: fmtMiB(peak),
        met: Number.isFinite(peak) ? peak < 1024 * 1024 : undefined,
      },
    ],
  };
}
