/**
 * Writes docs/diagnostics.md from the diagnostics catalogue (model/diagnostics.ts), so the page
 * cannot drift from the codes the toolkit reports: `npx tsx scripts/docs/diagnostics.ts` writes it,
 * `--check` exits 1 when the committed page is out of date (test/docs/diagnostics.test.ts runs it).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import {
  CATALOGUE,
  type DiagnosticCode,
  type DiagnosticEntry,
  type DiagnosticSource,
} from '../../model/diagnostics.ts';

export const DIAGNOSTICS_PAGE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../docs/diagnostics.md',
);

/** Sections in the order a description meets them; a code is listed under its first source. */
const SECTIONS: { source: DiagnosticSource; title: string; intro: string }[] = [
  {
    source: 'load',
    title: 'Loading',
    intro:
      "Repairs the loader makes before validation. Like the normaliser's findings, they are kept in the model's findings and listed among a contract run's warnings; the run goes on. The codes of severity error are the descriptions it refuses instead: exit 2, nothing written, each problem with its file, pointer and line; the error carries the code as `DATAAPI_SPEC_*` (`spec-syntax` is `DATAAPI_SPEC_SYNTAX`).",
  },
  {
    source: 'normalise',
    title: 'Normalising',
    intro:
      'What a description gets wrong or leaves unclear: repaired or ignored while the model is built, never a reason to stop. A contract run lists them among its warnings.',
  },
  {
    source: 'lint',
    title: '`dataapi lint`',
    intro:
      "The catalogue's own rules on top of OpenAPI validity (exit code 1 on any error). Rule ids are stable: CI filters and SARIF consumers rely on them.",
  },
  {
    source: 'server',
    title: 'Server stubs and mock',
    intro: 'Reported when the server or the mock starts (or first serves an operation).',
  },
  {
    source: 'mock',
    title: 'Mock',
    intro: 'Reported by `dataapi mock` while it checks examples and compiles schemas.',
  },
  {
    source: 'check',
    title: 'Checks of an exchange',
    intro:
      "What a target must do, one check each, and the norm that says so. A violation is the target's fault: a failure, in `contract`, `--fuzz`, `proxy`, `--from-har` and `--compare-mock` alike. A check's severity can be set per run (`contract.severity` in the configuration file, `--severity CHECK=warning`); `--checks` and `--exclude-checks` choose which run.",
  },
  {
    source: 'contract',
    title: 'Contract runs',
    intro:
      'Description warnings (severity warning): what a run (or `dataapi proxy`) blames on the description rather than on the target; they never fail a run, except under `--strict` or when set to failure. Not tested (severity not-tested): what the run lacked (credentials, test data, permission to write), one line each with the reason; never a failure. Drift (severity failure): with `--compare-mock`, a deployment answering a request otherwise than the embedded mock.',
  },
  {
    source: 'diff',
    title: '`dataapi diff`',
    intro:
      'One rule per kind of change between two descriptions. Breaking changes fail the comparison unless allowed (`--allow` or `x-dataapi-allow-breaking`). The norm says what a client built against the old description meets, and the clause behind it.',
  },
];

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(codes: [DiagnosticCode, DiagnosticEntry][]): string {
  // The norm a code enforces (the OpenAPI clause, the RFC section), where the section has any.
  const norms = codes.some(([, e]) => e.norm !== undefined);
  const rows = codes.map(
    ([code, e]) =>
      `| \`${code}\` | ${e.severity} | ${cell(e.title)} | ${cell(e.action)} |${norms ? ` ${cell(e.norm ?? '')} |` : ''} ${e.sources.join(', ')} |`,
  );
  return [
    `| Code | Severity | Meaning | What to do |${norms ? ' Norm |' : ''} Reported by |`,
    `| --- | --- | --- | --- |${norms ? ' --- |' : ''} --- |`,
    ...rows,
  ].join('\n');
}

/** The page, formatted as prettier formats the repository's Markdown. */
export async function renderDiagnostics(): Promise<string> {
  const entries = Object.entries(CATALOGUE) as [DiagnosticCode, DiagnosticEntry][];
  const parts = [
    '# Diagnostics',
    '<!-- Generated from model/diagnostics*.ts by scripts/docs/diagnostics.ts: do not edit by hand. -->',
    `Every code the toolkit reports, ${entries.length} in all, with its usual severity, what it means and what to do. The codes are stable: scripts may rely on them. A lint rule may report a milder case one step lower (its message says so).`,
  ];
  for (const s of SECTIONS) {
    const mine = entries.filter(([, e]) => e.sources[0] === s.source);
    if (mine.length === 0) continue;
    parts.push(`## ${s.title}`, s.intro, table(mine));
  }
  const text = parts.join('\n\n') + '\n';
  const options = (await prettier.resolveConfig(DIAGNOSTICS_PAGE)) ?? {};
  return prettier.format(text, { ...options, filepath: DIAGNOSTICS_PAGE });
}

async function main(argv: string[]): Promise<number> {
  const page = await renderDiagnostics();
  if (argv.includes('--check')) {
    const current = await readFile(DIAGNOSTICS_PAGE, 'utf8').catch(() => '');
    if (current === page) return 0;
    process.stderr.write(
      'docs/diagnostics.md is out of date: run npx tsx scripts/docs/diagnostics.ts\n',
    );
    return 1;
  }
  await writeFile(DIAGNOSTICS_PAGE, page);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = await main(process.argv.slice(2));
