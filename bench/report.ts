/**
 * BENCHMARKS.md: machine, versions, method, a summary of every target and one section per
 * benchmark. Each section is kept between markers with its verdicts in a comment, so a partial run
 * (`--only`) replaces its own sections and keeps the others, and the summary still covers all.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Section } from './lib/context.ts';
import { verdictText, type Verdict } from './lib/stats.ts';

export interface RunInfo {
  root: string;
  runs: number;
  warmup: number;
  quick: boolean;
  command: string;
  startedAt: Date;
  /** Benchmarks this run measured, when only some (`--only`). */
  only?: string[];
  /** os.loadavg() when the run started. */
  startLoad: number[];
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

export function machine(startLoad: number[]): string {
  const cpus = os.cpus();
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(
    os.totalmem() / 2 ** 30,
  )} GiB memory, ${os.type()} ${os.release()} (${os.arch()}); load average (1 / 5 / 15 min) ${load(
    startLoad,
  )} at the start of the run and ${load(os.loadavg())} at its end (2 would mean both cores busy)`;
}

const START = (id: string) => `<!-- section:${id} -->`;
const END = (id: string) => `<!-- /section:${id} -->`;

interface StoredSection {
  id: string;
  text: string;
  verdicts: Verdict[];
}

function parseSections(markdown: string): StoredSection[] {
  const out: StoredSection[] = [];
  const re = /<!-- section:([\w-]+) -->\n([\s\S]*?)<!-- \/section:\1 -->/g;
  for (const m of markdown.matchAll(re)) {
    const id = m[1] as string;
    const text = m[2] as string;
    const json = /<!-- verdicts:(.*) -->/.exec(text)?.[1];
    let verdicts: Verdict[] = [];
    try {
      verdicts = json ? (JSON.parse(json) as Verdict[]) : [];
    } catch {
      verdicts = [];
    }
    out.push({ id, text, verdicts });
  }
  return out;
}

/** Sections of this run, in `order`, with those not run kept from the previous file. */
export async function mergeSections(
  file: string,
  fresh: Section[],
  order: string[],
  stamp: string,
): Promise<StoredSection[]> {
  const previous = parseSections(await readFile(file, 'utf8').catch(() => ''));
  return order
    .map((id) => {
      const s = fresh.find((f) => f.id === id);
      if (s)
        return {
          id,
          verdicts: s.verdicts,
          text: `## ${s.title}\n\n_${stamp}_\n\n${s.body.trim()}\n\n${s.verdicts
            .map((v) => `- Target: ${v.target}: measured ${v.measured}, ${verdictText(v)}.`)
            .join('\n')}\n<!-- verdicts:${JSON.stringify(s.verdicts)} -->\n`,
        };
      return previous.find((p) => p.id === id);
    })
    .filter((s): s is StoredSection => s !== undefined);
}

export function renderReport(info: RunInfo, sections: StoredSection[]): string {
  const verdicts = sections.flatMap((s) => s.verdicts);
  const versionRows = versions(info.root).map(([n, v]) => `| ${n} | ${v} |`);
  return [
    '# Benchmarks',
    '',
    `Written by \`${info.command}\` (${info.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC). Do not edit by hand: re-run it. How to reproduce each figure: [docs/benchmarks.md](docs/benchmarks.md).`,
    '',
    '> Figures were taken on a **shared 2-core machine** while other engineers ran test suites on it, so absolute times are noisy; the targets are ratios measured side by side in one run, with the contenders taking turns in each round.',
    '',
    `- Machine: ${machine(info.startLoad)}`,
    `- Method: ${
      info.quick
        ? '**quick run** (1 measured run, no warm-up): indicative only, not the figures of record'
        : `median of ${info.runs} measured runs after ${info.warmup} warm-up run${info.warmup === 1 ? '' : 's'} of every contender`
    }${
      info.only
        ? ` (this run measured only ${info.only.join(', ')}; the other sections are kept from earlier runs, each with its own date and method)`
        : ''
    }; generation commands are cold processes (a new \`node\` each run, output folder emptied first), peak memory is the child's maximum resident set size from GNU time (\`/usr/bin/time -f %M\`).`,
    '',
    '## Summary',
    '',
    '| target | measured | verdict |',
    '| --- | ---: | --- |',
    ...verdicts.map((v) => `| ${v.target} | ${v.measured} | ${verdictText(v)} |`),
    '',
    '## Versions',
    '',
    '| package | version |',
    '| --- | --- |',
    ...versionRows,
    '',
    ...sections.map((s) => `${START(s.id)}\n${s.text}${END(s.id)}\n`),
  ].join('\n');
}
