/**
 * Outcomes of one description and the failure classes they fall into. A class is the outcome plus
 * its first error message with the names, numbers, paths and quoted text taken out, so that one
 * fault seen on a hundred descriptions is one line of docs/corpus.md, not a hundred.
 */

export const OUTCOMES = [
  'ok',
  'description-refused',
  'generate-invalid-output',
  'generate-crash',
  'tsc-errors',
  'suite-failures',
  'fuzz-failures',
  'toolkit-faults',
  'suite-crash',
  'timeout',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What each outcome means, for the report. */
export const OUTCOME_TEXT: Record<Outcome, string> = {
  ok: 'clean',
  'description-refused':
    'generate exit 2 with a clear message naming the file/pointer (a finding about the description, not a crash)',
  'generate-invalid-output':
    "generate exit 1: the toolkit's own output does not parse or type-check (a toolkit fault, named)",
  'generate-crash':
    'generate died (a raw stack trace, a signal, an unexpected exit code) or refused without saying where',
  'tsc-errors': 'generate exit 0, but tsc over the generated tree reports errors',
  'suite-failures': 'the contract suite against the embedded mock reports failures',
  'fuzz-failures': 'the suite passed, the seeded fuzz run reports findings',
  'toolkit-faults':
    'no failure of the target, but requests the suite built wrong (toolkit faults: our bugs, counted as failures here)',
  'suite-crash': 'the contract run ended without its results file (unexpected exit)',
  timeout: 'killed at the time bound',
};

export interface CorpusRecord {
  id: string;
  stage: 1 | 2;
  outcome: Outcome;
  /** The first error message (trimmed), for the examples. */
  message?: string;
  /** Wall time of the whole stage, ms. */
  ms: number;
  steps: Record<string, number>;
  operations?: number;
  failed?: number;
  fuzzFindings?: number;
  toolkitFaults?: number;
  at: string;
}

/** A line of a Node stack trace (`    at fn (file:1:2)`): must never reach a user. */
export const STACK_LINE =
  /^\s+at (?:.+ \()?(?:file:|node:|\/|[A-Za-z]:\\|<anonymous>).*\d+:\d+\)?$/m;

/** The message with what varies per description taken out: the class key. */
export function normalise(message: string): string {
  return (
    message
      .replace(/^.*?\.ts\(\d+,\d+\): /, '') // tsc's `file(line,col): `
      .replace(/\s+/g, ' ')
      .replace(/'[^']*'|"[^"]*"|`[^`]*`|‘[^’]*’|“[^”]*”/g, '<q>')
      // A pointer keeps its last token (`.../properties: must be object` says where it went wrong).
      .replace(/#\/[^\s,;)]*/g, (p) => `<pointer>/${p.split('/').pop()!.replace(/^\d+$/, '<n>')}`)
      .replace(/(?:\/[\w.@%~+-]+)+\/?/g, '<path>')
      .replace(/(?<!\w)\d+(?:\.\d+)?/g, '<n>') // `TS2322` (a word) keeps its code
      .trim()
      .slice(0, 160)
  );
}

/** `outcome: normalised first message` (the outcome alone when there is no message). */
export const classOf = (r: CorpusRecord): string =>
  r.message ? `${r.outcome}: ${normalise(r.message)}` : r.outcome;

/** The first line that says what went wrong, from a command's output. */
export function firstError(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const headline = lines.findIndex((l) => /^dataapi \w+: /.test(l));
  // `dataapi generate: Invalid OpenAPI description FILE` is followed by the indented reason.
  const detail =
    headline >= 0 && /^\s{2}/.test(lines[headline + 1] ?? '') ? lines[headline + 1] : '';
  const error =
    lines.find((l) => /error TS\d+/.test(l)) ??
    (headline >= 0 ? `${lines[headline]}${detail ? ` — ${detail.trim()}` : ''}` : undefined) ??
    lines.find((l) => /error|Error|fail/i.test(l)) ??
    lines[0] ??
    '';
  return error.trim().slice(0, 400);
}
