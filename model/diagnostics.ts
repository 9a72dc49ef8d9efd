/**
 * The diagnostics catalogue: every code the toolkit reports (loader and normaliser findings, lint
 * rules, mock findings, contract warnings, diff rules) with its severity, title and what to do.
 * Codes are typed from it, so a finding built with a code the catalogue lacks does not compile;
 * docs/diagnostics.md is generated from it (scripts/docs/diagnostics.ts).
 */
import { DESCRIPTION_DIAGNOSTICS } from './diagnostics-description.ts';
import { DIFF_RULES } from './diagnostics-diff.ts';
import {
  CHECK_DIAGNOSTICS,
  DRIFT_DIAGNOSTICS,
  VERDICT_DIAGNOSTICS,
} from './diagnostics-verdicts.ts';
import type { DiagnosticEntry, DiagnosticSource } from './diagnostics-types.ts';

export type { DiagnosticEntry, DiagnosticSeverity, DiagnosticSource } from './diagnostics-types.ts';
export { DIFF_RULES, type DiffRule } from './diagnostics-diff.ts';
export { LOAD_ERRORS, type LoadErrorCode } from './diagnostics-description.ts';

type Description = typeof DESCRIPTION_DIAGNOSTICS;
type Diff = typeof DIFF_RULES;
type Checks = typeof CHECK_DIAGNOSTICS;
type Verdicts = typeof VERDICT_DIAGNOSTICS;
type Drift = typeof DRIFT_DIAGNOSTICS;

// One code, one meaning: no two parts may share a code (these lines stop compiling if they do).
type Disjoint<A, B> = [keyof A & keyof B] extends [never] ? true : never;
const disjoint: [
  Disjoint<Description, Diff>,
  Disjoint<Description, Checks>,
  Disjoint<Description, Verdicts>,
  Disjoint<Diff, Checks>,
  Disjoint<Diff, Verdicts>,
  Disjoint<Checks, Verdicts>,
  Disjoint<Description & Diff & Checks & Verdicts, Drift>,
] = [true, true, true, true, true, true, true];
void disjoint;

export const CATALOGUE: Readonly<Description & Diff & Checks & Verdicts & Drift> = {
  ...DESCRIPTION_DIAGNOSTICS,
  ...DIFF_RULES,
  ...CHECK_DIAGNOSTICS,
  ...VERDICT_DIAGNOSTICS,
  ...DRIFT_DIAGNOSTICS,
};

export { CHECK_DIAGNOSTICS };
/** The checks of an exchange, by name (contract-tests/checks/definitions.ts adds how they run). */
export type CheckCode = keyof Checks;
/** What a run could not test (or, toolkit-fault, built wrong), by code. */
export type NotTestedCode = keyof Verdicts;

export type DiagnosticCode = keyof typeof CATALOGUE;

/** The codes one part of the toolkit reports. */
export type CodesOf<S extends DiagnosticSource> = {
  [K in DiagnosticCode]: S extends (typeof CATALOGUE)[K]['sources'][number] ? K : never;
}[DiagnosticCode];

/** Codes of findings about a description: the loader's, the normaliser's, the server's and the mock's. */
export type FindingCode = CodesOf<'load' | 'normalise' | 'server' | 'mock'>;
/** Codes of the findings the model carries (the loader's and the normaliser's). */
export type ModelFindingCode = CodesOf<'load' | 'normalise'>;
/** Rule ids of `dataapi lint`. */
export type LintRuleId = CodesOf<'lint'>;
/** Codes of a contract run's description warnings (the normaliser's findings among them). */
export type WarningCode = CodesOf<'contract'>;
/** Rule ids of `dataapi diff`. */
export type DiffRuleId = keyof Diff;

export const isDiagnosticCode = (code: string): code is DiagnosticCode =>
  Object.hasOwn(CATALOGUE, code);

/** The entry of a code. */
export const diagnostic = (code: DiagnosticCode): DiagnosticEntry => CATALOGUE[code];

/**
 * What a user may set a check's or a warning's severity to (`contract.severity` in the
 * configuration file, `--severity CODE=LEVEL`): a failure fails the run, a warning is listed
 * (and fails it only under --strict), off drops it.
 */
export type SeveritySetting = 'failure' | 'warning' | 'off';
export const SEVERITY_SETTINGS: readonly SeveritySetting[] = ['failure', 'warning', 'off'];
/** The user's settings, by code. */
export type SeveritySettings = Partial<Record<string, SeveritySetting>>;

/** Codes whose severity a user may set: the checks and the contract's description warnings. */
export const settableCodes = (): string[] =>
  (Object.keys(CATALOGUE) as DiagnosticCode[]).filter((c) => {
    const e = CATALOGUE[c] as DiagnosticEntry;
    return e.severity === 'failure' || (e.severity === 'warning' && e.sources.includes('contract'));
  });

/**
 * The severity of a finding of this code in a run: the user's setting where there is one, else
 * the catalogue's (a check's violation is a failure, a description's silence a warning). The one
 * place a verdict's severity is decided.
 */
export function severityOf(
  code: DiagnosticCode,
  settings: SeveritySettings | undefined,
): SeveritySetting | 'not-tested' {
  const set = settings && Object.hasOwn(settings, code) ? settings[code] : undefined;
  if (set !== undefined) return set;
  // lint's errors and diff's breaking changes are their own commands' scales: in a run, what is
  // not a check's violation (or a lack) is about the description, a warning.
  const s = CATALOGUE[code].severity as DiagnosticEntry['severity'];
  return s === 'failure' ? 'failure' : s === 'not-tested' ? 'not-tested' : 'warning';
}
