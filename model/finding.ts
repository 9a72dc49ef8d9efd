/**
 * The one record every verdict and diagnostic travels in, from whichever part found it (the loader,
 * the normaliser, lint, the mock, a check of an exchange, fuzzing, the proxy, drift, diff) to every
 * report that shows it. Its code is a code of the catalogue (model/diagnostics.ts); its severity is
 * decided by the sink that collects it (`Diagnostics`), from the catalogue and the user's settings,
 * never by the producer.
 */
import {
  CATALOGUE,
  severityOf,
  type DiagnosticCode,
  type DiagnosticEntry,
  type DiagnosticSeverity,
  type SeveritySettings,
} from './diagnostics.ts';

/** What a finding is about: an operation (and variant), and a place in the description. */
export interface FindingSubject {
  /** The operation's id (or method and path where it has none yet). */
  operation?: string;
  /** `main` or `preview` for a finding on an exchange. */
  variant?: string;
  /** JSON pointer into the (bundled) description. */
  pointer?: string;
  /** The file the author wrote it in (a split description's own file, not the bundle). */
  file?: string;
  line?: number;
  column?: number;
}

/** What a finding on an exchange rests on: the request, and what was expected and answered. */
export interface FindingEvidence {
  /** The request (key redacted) and what it was for (`negative: query q missing`). */
  request?: { method: string; url: string; purpose?: string };
  status?: number;
  expected?: string;
  actual?: string;
  /** Detail lines (Ajv error paths, each violation of a check). */
  errors?: string[];
  /** A short excerpt of the offending value or body. */
  excerpt?: string;
}

export interface Finding<Code extends DiagnosticCode = DiagnosticCode> extends FindingSubject {
  code: Code;
  severity: DiagnosticSeverity;
  message: string;
  evidence?: FindingEvidence;
}

/** A finding as a producer hands it over: everything but the severity, which the sink decides. */
export type FindingInput<Code extends DiagnosticCode = DiagnosticCode> = Omit<
  Finding<Code>,
  'severity'
>;

/** How a sink decides a severity: the catalogue's scale for a command, or a run's. */
export type SeverityRule = (code: DiagnosticCode) => DiagnosticSeverity | 'off';

/** The catalogue's own severity (lint's errors and warnings, diff's breaking and compatible). */
export const catalogueSeverity = (code: DiagnosticCode): DiagnosticSeverity =>
  (CATALOGUE[code] as DiagnosticEntry).severity;

/**
 * A run's severity (the suite, fuzzing, the proxy): the user's setting for a code where there is
 * one, else a check's violation is a failure, a lack is not-tested, anything else a warning.
 */
export const runSeverity =
  (settings: SeveritySettings | undefined): SeverityRule =>
  (code) =>
    severityOf(code, settings);

/**
 * A finding with its severity decided from the catalogue, for a producer that reports one at a
 * time (the mock's and the server's startup findings) rather than into a run's sink.
 */
export function findingOf<Code extends DiagnosticCode, I extends FindingInput<Code>>(
  input: I,
): I & { severity: DiagnosticSeverity } {
  return { ...input, severity: catalogueSeverity(input.code) };
}

/** One step down the scale, for a lint rule's milder case (its message says which). */
const LOWER: Partial<Record<DiagnosticSeverity, DiagnosticSeverity>> = {
  error: 'warning',
  failure: 'warning',
  breaking: 'warning',
};

/**
 * The findings of one run, as every report reads them: each added once (same code, place,
 * operation, variant and message), with its severity decided here, and listed in a stable order.
 */
export class Diagnostics {
  private readonly list: Finding[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly rule: SeverityRule = catalogueSeverity) {}

  /** The severity this sink gives a code (before `milder`), or `off`: what `add` would decide. */
  decide(code: DiagnosticCode): DiagnosticSeverity | 'off' {
    return this.rule(code);
  }

  /**
   * Adds a finding; returns it, or undefined when the user turned its code off or it was there
   * already. `milder` takes the severity one step down (a rule's case its entry calls milder).
   */
  add<Code extends DiagnosticCode>(
    input: FindingInput<Code>,
    options: { milder?: boolean } = {},
  ): Finding<Code> | undefined {
    const decided = this.rule(input.code);
    if (decided === 'off') return undefined;
    const severity = options.milder ? (LOWER[decided] ?? decided) : decided;
    const key = keyOf(input);
    if (this.seen.has(key)) return undefined;
    this.seen.add(key);
    const finding = { ...input, severity } as Finding<Code>;
    this.list.push(finding);
    return finding;
  }

  /** Findings already decided elsewhere (a merged shard, a judging thread): kept as they are. */
  addDecided(findings: readonly Finding[]): void {
    for (const f of findings) {
      const key = keyOf(f);
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.list.push(f);
    }
  }

  /** In the order they were added. */
  get all(): readonly Finding[] {
    return this.list;
  }

  /** Ordered by file, line, pointer, code and operation: what written reports list. */
  sorted(): Finding[] {
    return [...this.list].sort(compareFindings);
  }

  count(severity: DiagnosticSeverity): number {
    return this.list.filter((f) => f.severity === severity).length;
  }

  ofSeverity(severity: DiagnosticSeverity): Finding[] {
    return this.list.filter((f) => f.severity === severity);
  }
}

const keyOf = (f: FindingInput): string =>
  [f.code, f.file ?? '', f.pointer ?? '', f.operation ?? '', f.variant ?? '', f.message].join(
    '\u0000',
  );

const text = (a: string | undefined, b: string | undefined) =>
  (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;

/** A stable order for findings (byte-identical reports run to run). */
export function compareFindings(a: FindingInput, b: FindingInput): number {
  return (
    text(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    text(a.pointer, b.pointer) ||
    text(a.code, b.code) ||
    text(a.operation, b.operation) ||
    text(a.variant, b.variant) ||
    text(a.message, b.message)
  );
}
