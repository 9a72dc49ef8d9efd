/**
 * GitHub's REST description at scale (issue 17): generation against openapi-typescript alone, tsc
 * over the generated output against tsc over openapi-typescript's output, the mock's start-up and
 * the contract run against the embedded mock. Each ratio is measured in one run, the contenders
 * taking turns (bench/lib/side-by-side.ts).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { profileByPackage, profileTable } from './lib/profile.ts';
import {
  OWN_TIME_NOTE,
  commandList,
  sideBySide,
  timingTable,
  type Contender,
  type Measured,
} from './lib/side-by-side.ts';
import { fmtMiB, fmtRatio } from './lib/stats.ts';

export const GITHUB_SPEC = 'bench/node_modules/@octokit/openapi/generated/api.github.com.json';

const rel = (ctx: BenchContext, p: string) => path.relative(ctx.root, p).split(path.sep).join('/');

/**
 * openapi-typescript reads redocly.yaml from its working directory, and the project's (the
 * `recommended` rules, for linting spec/openapi.yaml) rejects GitHub's description: it runs from
 * bench/.work, with its own default rules.
 */
const OTS_CWD = 'bench/.work';
export const otsContender = (spec: string, out: string): Contender => ({
  label: 'openapi-typescript',
  cwd: OTS_CWD,
  argv: ['openapi-typescript', `../../${spec}`, '-o', `../../${out}`],
  clean: [out],
});
/**
 * Cold: an empty output folder and no record of an earlier type-check (a tree that checked before
 * is not checked again: generator/speed/typecheck-cache.ts), so every run pays the check.
 */
const dataapiContender = (label: string, spec: string, out: string): Contender => ({
  label,
  argv: ['node', 'bin/dataapi.js', 'generate', '--spec', spec, '--out', out],
  clean: [out, 'node_modules/.cache/dataapi/typecheck'],
});

const byLabel = (m: Measured[], label: string) =>
  m.find((x) => x.contender.label === label) as Measured;

/** 2. GitHub's description, every kind, against openapi-typescript alone. */
export async function githubGeneration(ctx: BenchContext): Promise<Section> {
  const out = rel(ctx, path.join(ctx.work, 'gen-github'));
  ctx.log(`generation: ${GITHUB_SPEC}`);
  const ours = dataapiContender('dataapi, every kind', GITHUB_SPEC, `${out}/dataapi`);
  const contenders = [otsContender(GITHUB_SPEC, `${out}/openapi-typescript.ts`), ours];
  await readFile(path.resolve(ctx.root, GITHUB_SPEC)); // the input in the page cache for everyone
  const m = await sideBySide(ctx, contenders);
  const base = byLabel(m, 'openapi-typescript');
  const d = byLabel(m, ours.label);
  const ratio = d.medianMs / base.medianMs;
  const files = /(\d+) files/.exec(d.runs[0]?.output ?? '')?.[1] ?? '?';
  // One more run under the CPU profiler: where dataapi's time goes, thread by thread.
  const profOut = `${out}/dataapi-profiled`;
  await rm(path.resolve(ctx.root, profOut), { recursive: true, force: true });
  const profile = await profileByPackage(
    ctx.root,
    ['bin/dataapi.js', 'generate', '--spec', GITHUB_SPEC, '--out', profOut],
    path.join(ctx.work, 'profile-github'),
  );
  return {
    id: 'generation-github',
    title: "2. Generating GitHub's REST description (1,223 operations)",
    body: [
      `Input: \`${GITHUB_SPEC}\` (13 MB of JSON; only this file is read). dataapi writes its whole output (every template kind, types, model: ${files} files, formatted) into an empty folder each run; openapi-typescript writes types only. ${ctx.warmup > 0 ? `Warm-up: ${ctx.warmup} run of each on this input.` : 'No warm-up.'} (Earlier reports compared with @hey-api/openapi-ts 0.94.5, whose newer releases are several times faster; openapi-typescript, which dataapi runs inside itself, is the reference that does not move.)`,
      '',
      timingTable(m, 'openapi-typescript'),
      '',
      OWN_TIME_NOTE,
      '',
      'Commands (from the project root):',
      commandList(m),
      '',
      `Where a cold dataapi run spends its CPU time (one extra run under \`node --cpu-prof\`, self time summed over its ${profile.threads.length} threads, busy ${profile.threads.map((t) => `${Math.round(t)} ms`).join(' + ')}: the main thread loads, validates and normalises the description, renders the templates and model.json, and formats with prettier; the worker renders types.ts with openapi-typescript from the start of the run, parses every emitted TypeScript file with the compiler, then type-checks the whole tree while the main thread formats):`,
      '',
      profileTable(profile, 12),
    ].join('\n'),
    verdicts: [
      // Issue 49: a guard against regression, with the whole-tree type-check on (issue 29's
      // 1.2x and 500 MiB were not met with it; issue 17's were 2x and 700 MiB).
      {
        target:
          "GitHub: dataapi's whole output <= 1.6x openapi-typescript alone (regression guard)",
        measured: `${fmtRatio(ratio)} (CPU time ${fmtRatio(d.cpuMs / base.cpuMs)})`,
        met: ratio <= 1.6,
      },
      {
        target: "GitHub: dataapi's peak memory <= 1.25 GiB (regression guard)",
        measured: fmtMiB(d.maxRssKb),
        met: Number.isFinite(d.maxRssKb) ? d.maxRssKb <= 1.25 * 1024 * 1024 : undefined,
      },
    ],
  };
}

/** A tsconfig in `dir` that checks `include` with the project's compiler options. */
async function tsconfigIn(ctx: BenchContext, dir: string, include: string[]): Promise<string> {
  const abs = path.resolve(ctx.root, dir);
  await mkdir(abs, { recursive: true });
  const base = path.relative(abs, path.join(ctx.root, 'tsconfig.json')).split(path.sep).join('/');
  // Another project's view: `dataapi/...` through the declaration files (package.json's `types`
  // condition), not the sources this project checks itself with (`dataapi-source`).
  const config = { extends: base, compilerOptions: { customConditions: [] }, include, exclude: [] };
  await writeFile(path.join(abs, 'tsconfig.json'), JSON.stringify(config, null, 2) + '\n');
  return `${dir}/tsconfig.json`;
}

/** 2b. `tsc --noEmit` over the generated GitHub output against tsc over openapi-typescript's. */
export async function githubTypecheck(ctx: BenchContext): Promise<Section> {
  // Outside bench/: bench/package.json makes bench/ a package of its own, where the output's
  // `dataapi/...` imports would not resolve to this package (.work/ is gitignored).
  const dir = '.work/bench-tsc-github';
  await rm(path.resolve(ctx.root, dir), { recursive: true, force: true });
  ctx.log(`typecheck: ${GITHUB_SPEC}`);
  // The outputs and the runtime's declarations are made once (not timed); tsc runs in a cold
  // process each time.
  await sideBySide(ctx, [{ label: 'build', argv: ['node', 'scripts/build.js'] }], {
    warmup: 0,
    runs: 1,
  });
  for (const c of [
    otsContender(GITHUB_SPEC, `${dir}/openapi-typescript/types.ts`),
    dataapiContender('dataapi', GITHUB_SPEC, `${dir}/dataapi`),
  ])
    await sideBySide(ctx, [c], { warmup: 0, runs: 1 });
  const tsc = (label: string, config: string): Contender => ({
    label,
    argv: ['tsc', '--noEmit', '-p', config],
  });
  const contenders = [
    tsc(
      "tsc over openapi-typescript's types.ts",
      await tsconfigIn(ctx, `${dir}/openapi-typescript`, ['types.ts']),
    ),
    tsc("tsc over dataapi's whole output", await tsconfigIn(ctx, `${dir}/dataapi`, ['**/*.ts'])),
  ];
  const m = await sideBySide(ctx, contenders);
  const base = byLabel(m, contenders[0]!.label);
  const d = byLabel(m, contenders[1]!.label);
  const ratio = d.medianMs / base.medianMs;
  return {
    id: 'typecheck-github',
    title: "2b. Type-checking GitHub's generated output",
    body: [
      `\`tsc --noEmit\` with the project's compiler options (tsconfig.json: strict, NodeNext, skipLibCheck) over dataapi's whole output for \`${GITHUB_SPEC}\` (types.ts, model.ts, client, server, mock and 1,223 contract-test files, with the declaration files of the dataapi runtime modules they import, as any project but this one reads them: \`npm run build\` builds them into dist/) and over openapi-typescript's types.ts alone; both outputs are made once before timing, and each tsc is a cold process.`,
      '',
      timingTable(m, base.contender.label),
      '',
      OWN_TIME_NOTE.split('\n')[1] ?? '',
      '',
      'Commands (from the project root, after generating into the two folders):',
      commandList(m),
    ].join('\n'),
    verdicts: [
      {
        target: "GitHub: tsc over dataapi's output <= 1.5x tsc over openapi-typescript's",
        measured: `${fmtRatio(ratio)} (CPU time ${fmtRatio(d.cpuMs / base.cpuMs)})`,
        met: ratio <= 1.5,
      },
    ],
  };
}
