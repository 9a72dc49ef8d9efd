/**
 * The diagnostics catalogue: every code the toolkit reports (loader and normaliser findings, lint
 * rules, mock findings, contract warnings, diff rules) with its severity, title and what to do.
 * Codes are typed from it, so a finding built with a code the catalogue lacks does not compile;
 * docs/diagnostics.md is generated from it (scripts/docs/diagnostics.ts).
 */
import { DESCRIPTION_DIAGNOSTICS } from './diagnostics-description.ts';
import { DIFF_RULES } from './diagnostics-diff.ts';
import type { DiagnosticEntry, DiagnosticSource } from './diagnostics-types.ts';

export type { DiagnosticEntry, DiagnosticSeverity, DiagnosticSource } from './diagnostics-types.ts';
export { DIFF_RULES, type DiffRule } from './diagnostics-diff.ts';

type Description = typeof DESCRIPTION_DIAGNOSTICS;
type Diff = typeof DIFF_RULES;

// One code, one meaning: the two halves may not share a code (this line stops compiling if they do).
const disjoint: [keyof Description & keyof Diff] extends [never] ? true : never = true;
void disjoint;

export const CATALOGUE: Readonly<Description & Diff> = {
  ...DESCRIPTION_DIAGNOSTICS,
  ...DIFF_RULES,
};

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
