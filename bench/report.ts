/**
 * BENCHMARKS.md: the run's commit, date and duration, the machine as measured, a summary of every
 * target and one section per benchmark. Each section is kept between markers with its verdicts and
 * the record of the run that measured it in comments, so a partial run (`--only`) replaces its own
 * sections and keeps the others, and the header says which sections come from which commit.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Section } from './lib/context.ts';
import {
  commitText,
  fmtDuration,
  fmtWhen,
  shortCommit,
  type Calibration,
  type RunRecord,
} from './lib/run-info.ts';
import { fmtInt, verdictText, type Verdict } from './lib/stats.ts';

export interface RunInfo {
  root: string;
  command: string;
  run: RunRecord;
  /** Benchmarks this run measured, when only some (`--only`). */
  only?: string[];
}

const PACKAGES = [
  'openapi-typescript',
  '@hey-api/openapi-ts',
  '@stoplight/prism-cli',
  'autocannon',
  'fastify',
  'ajv',
  'prettier',
  'typescript',
  'vitest',
  'tsx',
];

export function versions(root: string): [string, string][] {
  const req = createRequire(path.join(root, 'package.json'));
  const out: [string, string][] = [
    ['dataapi', (req('./package.json') as { version: string }).version],
    ['node', process.version],
  ];
  // The project's own packages, and the anchors installed in bench/node_modules.
  const folders = [path.join(root, 'node_modules'), path.join(root, 'bench', 'node_modules')];
  for (const name of PACKAGES) {
    let version = 'not installed';
    for (const folder of folders) {
      try {
        const text = readFileSync(path.join(folder, name, 'package.json'), 'utf8');
        version = (JSON.parse(text) as { version: string }).version;
        break;
      } catch {
        // not in this folder
      }
    }
    out.push([name, version]);
  }
  return out;
}

const START = (id: string) => `<!-- section:${id} -->`;
const END = (id: string) => `<!-- /section:${id} -->`;

export interface StoredSection {
  id: string;
  text: string;
  verdicts: Verdict[];
  /** The run that measured it; undefined for a section written before runs were recorded. */
  run?: RunRecord;
  /** How long the section took, seconds. */
  took?: number;
}

function parseJson<T>(text: string | undefined): T | undefined {
  try {
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function parseSections(markdown: string): StoredSection[] {
  const out: StoredSection[] = [];
  const re = /<!-- section:([\w-]+) -->\n([\s\S]*?)<!-- \/section:\1 -->/g;
  for (const m of markdown.matchAll(re)) {
    const id = m[1] as string;
    const text = m[2] as string;
    const verdicts = parseJson<Verdict[]>(/<!-- verdicts:(.*) -->/.exec(text)?.[1]) ?? [];
    const measured = parseJson<{ run: RunRecord; took: number }>(
      /<!-- measured:(.*) -->/.exec(text)?.[1],
    );
    out.push({ id, text, verdicts, ...(measured ?? {}) });
  }
  return out;
}

/** A fresh section with this run's stamp: its date, commit, method and duration. */
export function storeSection(s: Section, run: RunRecord, took: number): StoredSection {
  const stamp = `_Measured ${fmtWhen(run.at)} ${commitText(run)}, ${run.method}; this section took ${fmtDuration(took)}._`;
  return {
    id: s.id,
    verdicts: s.verdicts,
    run,
    took,
    text: `## ${s.title}\n\n${stamp}\n\n${s.body.trim()}\n\n${s.verdicts
      .map((v) => `- Target: ${v.target}: measured ${v.measured}, ${verdictText(v)}.`)
      .join(
        '\n',
      )}\n<!-- verdicts:${JSON.stringify(s.verdicts)} -->\n<!-- measured:${JSON.stringify({ took, run })} -->\n`,
  };
}

/** This run's sections, in `order`, with those it did not run kept from the previous file. */
export async function mergeSections(
  file: string,
  fresh: StoredSection[],
  order: string[],
): Promise<StoredSection[]> {
  const previous = parseSections(await readFile(file, 'utf8').catch(() => ''));
  return order
    .map((id) => fresh.find((f) => f.id === id) ?? previous.find((p) => p.id === id))
    .filter((s): s is StoredSection => s !== undefined);
}

const ms = (n: number) => `${Math.round(n)} ms`;

function calibrationText(start: Calibration, end?: Calibration): string {
  const one = (c: Calibration) =>
    `SHA-256 ${ms(c.hashCpuMs)} CPU (${ms(c.hashWallMs)} wall), JSON ${ms(c.jsonCpuMs)} CPU (${ms(c.jsonWallMs)} wall)`;
  return `${one(start)} at the start${end ? `; ${one(end)} at the end` : ''}`;
}

/** The machine as this run measured it, and what the load says about the figures. */
function machineLines(run: RunRecord): string[] {
  const cores = Number(/^(\d+)/.exec(run.cpus)?.[1] ?? Number.NaN);
  const l = run.load;
  const f = (x: number) => x.toFixed(2);
  const busy =
    l.median > cores
      ? `The median exceeds the number of cores (${cores}): processes were queueing for the CPU for most of the run, so absolute times are stretched; the ratios compare contenders that took turns in each round.`
      : `The median stayed at or under the number of cores (${cores}).`;
  return [
    `- CPU: ${run.cpus} (\`os.cpus()\`); memory ${run.memGiB} GiB; ${run.os}; Node ${run.node}.`,
    `- Load average (1 minute): ${f(l.start)} at the start, ${f(l.end)} at the end; ${l.count} samples through the run (every 10 s): lowest ${f(l.min)}, median ${f(l.median)}, highest ${f(l.max)}. ${busy}`,
    `- CPU calibration, to compare machines (fixed work in the bench process: 128 SHA-256 digests of a 1 MiB buffer, native code; 500 JSON round trips of a 10 kB document, the JavaScript engine; each timed 5 times, the least CPU time and the median wall time; lower is faster, and wall above CPU means other processes took the CPU): ${calibrationText(run.calibration.start, run.calibration.end)}.`,
    `- Method: ${run.method}; generation commands are cold processes (a new \`node\` each run, output folder emptied first), peak memory is the child's maximum resident set size from GNU time (\`/usr/bin/time -f %M\`).`,
  ];
}

/** The runs the sections come from, oldest first (sections of no recorded run grouped apart). */
function runsOf(sections: StoredSection[]): { run?: RunRecord; ids: string[]; when: string }[] {
  const groups = new Map<string, { run?: RunRecord; ids: string[]; when: string }>();
  for (const s of sections) {
    const when = s.run?.at ?? /_Measured (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/.exec(s.text)?.[1] ?? '?';
    const key = s.run ? `${s.run.at} ${s.run.commit}` : 'unrecorded';
    const g = groups.get(key) ?? { ...(s.run ? { run: s.run } : {}), ids: [], when };
    g.ids.push(s.id);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => a.when.localeCompare(b.when));
}

function runsTable(sections: StoredSection[]): string[] {
  return [
    '| run started | commit | tree | method | load (median, 1 min) | SHA-256 calibration (CPU) | sections |',
    '| --- | --- | --- | --- | ---: | ---: | --- |',
    ...runsOf(sections).map(({ run, ids }) =>
      run
        ? `| ${fmtWhen(run.at)} | \`${shortCommit(run)}\` | ${
            !run.commit
              ? '?'
              : run.dirty.length === 0
                ? 'clean'
                : `${run.dirty.length} change${run.dirty.length === 1 ? '' : 's'}`
          } | ${run.method} | ${run.load.median.toFixed(2)} | ${ms(run.calibration.start.hashCpuMs)} | ${ids.join(', ')} |`
        : `| before runs were recorded (dates in each section) | **not recorded** | ? | ? | ? | ? | ${ids.join(', ')} |`,
    ),
  ];
}

export function renderReport(info: RunInfo, sections: StoredSection[]): string {
  const { run } = info;
  const runs = runsOf(sections);
  const stitched = runs.length > 1 || runs.some((r) => r.run?.at !== run.at);
  const dirty = run.dirty.length
    ? ` Uncommitted changes when it started: ${run.dirty
        .slice(0, 8)
        .map((p) => `\`${p}\``)
        .join(', ')}${run.dirty.length > 8 ? `, and ${run.dirty.length - 8} more` : ''}.`
    : '';
  const moved = run.endCommit
    ? ` **HEAD moved during the run**, to \`${run.endCommit.slice(0, 10)}\`.`
    : '';
  const whence = new Map(sections.map((s) => [s.id, s.run ? shortCommit(s.run) : 'not recorded']));
  const summaryRows = sections.flatMap((s) =>
    s.verdicts.map(
      (v) =>
        `| ${v.target} | ${v.measured} | ${verdictText(v)} |${stitched ? ` ${whence.get(s.id)} |` : ''}`,
    ),
  );
  return [
    '# Benchmarks',
    '',
    `Written by \`${info.command}\` ${commitText(run)}, started ${fmtWhen(run.at)}; the run took ${fmtDuration(run.seconds)}.${dirty}${moved} Do not edit by hand: re-run it. How to reproduce each figure: [docs/benchmarks.md](docs/benchmarks.md).`,
    '',
    stitched
      ? `**Stitched file**: ${
          info.only ? `this run measured only ${info.only.join(', ')}; ` : ''
        }its ${fmtInt(sections.length)} sections come from ${runs.length} runs at ${
          new Set(runs.map((r) => r.run?.commit ?? 'unrecorded')).size
        } commits (below, "Sections by run"). Each section names its own run.`
      : `Every section below was measured in this run, at this commit.`,
    '',
    '## Machine of this run (measured)',
    '',
    ...machineLines(run),
    '',
    ...(stitched ? ['## Sections by run', '', ...runsTable(sections), ''] : []),
    '## Summary',
    '',
    `| target | measured | verdict |${stitched ? ' commit |' : ''}`,
    `| --- | ---: | --- |${stitched ? ' --- |' : ''}`,
    ...summaryRows,
    '',
    '## Versions',
    '',
    stitched ? 'As installed for this run; sections from other runs may have used others.\n' : '',
    '| package | version |',
    '| --- | --- |',
    ...versions(info.root).map(([n, v]) => `| ${n} | ${v} |`),
    '',
    ...sections.map((s) => `${START(s.id)}\n${s.text}${END(s.id)}\n`),
  ].join('\n');
}
