/**
 * Contract reports: `--reporter console,junit,json,html,sarif [--report-dir reports/]`.
 *
 * Our reporters render the structured results of the run (plus coverage against the model); any
 * other name is one of vitest's own reporters, run while the suite runs (progress output, TAP,
 * GitHub annotations...). `vitest-junit` and `vitest-json` are vitest's junit and json reporters,
 * written into the report directory beside ours.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { writeWhole } from '../write-whole.ts';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import type { Reporter } from 'vitest/node';
import type { ContractRunResult } from '../results.ts';
import { renderConsole, renderSummary } from './console.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJUnit } from './junit.ts';
import { renderSarif } from './sarif.ts';
import { ProgressReporter } from './progress.ts';
import { redactorFor } from 'dataapi/runtime/shared';
import { buildReport, type ContractReport } from './report.ts';

export { buildReport, type ContractReport } from './report.ts';
export { computeCoverage, type CoverageReport } from './coverage.ts';
export { renderConsole, renderHtml, renderJson, renderJUnit, renderSarif };

/**
 * Reporters this module renders, and the file each writes into the report directory. The JSON
 * report is the run's results file itself (`--results`, default this name): one file, not two.
 */
export const REPORT_FILES = {
  junit: 'contract-junit.xml',
  json: 'contract-results.json',
  html: 'contract-report.html',
  sarif: 'contract-results.sarif',
} as const;
export const OWN_REPORTERS = ['console', 'junit', 'json', 'html', 'sarif'] as const;

/** vitest's built-in reporters that may be named (ours take `junit` and `json`). */
const VITEST_REPORTERS = [
  'default',
  'verbose',
  'dot',
  'tap',
  'tap-flat',
  'tree',
  'minimal',
  'agent',
  'blob',
  'hanging-process',
  'github-actions',
  'vitest-junit',
  'vitest-json',
];
/** Where vitest's own file reporters write, in the report directory. */
export const VITEST_FILES = { junit: 'vitest-junit.xml', json: 'vitest-results.json' } as const;

export const DEFAULT_REPORTERS = ['console'];

/** Why a list of reporter names is not acceptable, or undefined when it is. */
export function reporterError(names: string[]): string | undefined {
  const unknown = names.filter(
    (n) =>
      !(OWN_REPORTERS as readonly string[]).includes(n) &&
      !VITEST_REPORTERS.includes(n) &&
      // A custom vitest reporter given as a module path.
      !/[/\\.]/.test(n),
  );
  if (!unknown.length) return undefined;
  return `unknown reporter ${unknown.map((n) => JSON.stringify(n)).join(', ')} (ours: ${OWN_REPORTERS.join(', ')}; vitest's: ${VITEST_REPORTERS.join(', ')})`;
}

/** vitest reporters that print progress to the terminal themselves. */
const VITEST_TERMINAL = [
  'default',
  'verbose',
  'dot',
  'tap',
  'tap-flat',
  'tree',
  'minimal',
  'agent',
];

/**
 * The reporters vitest runs for a list of names: vitest's own by name, plus a compact line per
 * operation file (ProgressReporter, which prints no text a target sent) unless one of vitest's
 * terminal reporters was named. vitest's `default` prints its failure messages itself, so it is
 * only used when named.
 */
export function vitestReporters(
  names: string[] = DEFAULT_REPORTERS,
  out: NodeJS.WritableStream = process.stdout,
): (string | Reporter)[] {
  const list = names.length ? names : DEFAULT_REPORTERS;
  const theirs = [
    ...new Set(
      list
        .filter((n) => !(OWN_REPORTERS as readonly string[]).includes(n))
        .map((n) => (n === 'vitest-junit' ? 'junit' : n === 'vitest-json' ? 'json' : n)),
    ),
  ];
  return theirs.some((n) => VITEST_TERMINAL.includes(n))
    ? theirs
    : [new ProgressReporter(out), ...theirs];
}

export interface WriteReportsOptions {
  model: ServiceModel;
  /** Reporter names as given (default: console). */
  reporters?: string[];
  /** Absolute report directory. */
  dir: string;
  /** Paths are shown relative to this. */
  root: string;
  out: NodeJS.WritableStream;
  /** Secrets no report may contain (the key). */
  secrets: (string | undefined)[];
  /**
   * The run's results file: always written, as the JSON report (absent: the JSON report goes to
   * `<dir>/contract-results.json` when `json` is named).
   */
  resultsFile?: string;
  color?: boolean;
  /** The description file, as SARIF locates results in it (default spec/openapi.yaml). */
  descriptionFile?: string;
}

/** Renders the chosen reports: files into `dir`, the console report (or a summary) to `out`. */
export async function writeReports(
  result: ContractRunResult,
  o: WriteReportsOptions,
): Promise<{ report: ContractReport; files: string[] }> {
  const names = new Set(o.reporters?.length ? o.reporters : DEFAULT_REPORTERS);
  const report = buildReport(result, o.model, o.secrets);
  const files: string[] = [];
  const redactor = redactorFor(o.secrets);
  const renderers: [keyof typeof REPORT_FILES, (r: ContractReport) => string][] = [
    ['json', renderJson],
    ['junit', renderJUnit],
    ['html', renderHtml],
    [
      'sarif',
      (r) =>
        renderSarif(r, {
          model: o.model,
          descriptionFile: o.descriptionFile ?? 'spec/openapi.yaml',
        }),
    ],
  ];
  for (const [name, render] of renderers) {
    const file =
      name === 'json' && o.resultsFile ? o.resultsFile : path.join(o.dir, REPORT_FILES[name]);
    if (!names.has(name) && file !== o.resultsFile) continue;
    await mkdir(path.dirname(file), { recursive: true });
    // Rendered from redacted values: the text is never rewritten, so no key can damage its structure.
    // Written whole: the proxy rewrites its reports while readers follow them.
    await writeWhole(file, render(report));
    files.push(file);
  }
  // vitest's own files hold its error messages as vitest printed them (from redacted results):
  // a long key is removed anywhere once more; a short one could only match vitest's own words.
  for (const [name, file] of Object.entries(VITEST_FILES)) {
    if (!names.has(`vitest-${name}`)) continue;
    const full = path.join(o.dir, file);
    const text = await readFile(full, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    await writeFile(full, redactor.composed(text));
    files.push(full);
  }
  const shown = files.map((f) => path.relative(o.root, f) || f);
  const text = names.has('console')
    ? renderConsole(report, { color: o.color ?? false, files: shown })
    : renderSummary(report, { files: shown });
  o.out.write(text);
  return { report, files };
}
