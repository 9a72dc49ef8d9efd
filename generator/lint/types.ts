/** Findings of `dataapi lint`: one rule broken at one place of the description. */
import type { ModelFinding } from '../../model/service-model.ts';
import { CATALOGUE, type LintRuleId } from '../../model/diagnostics.ts';
import type { Finding, FindingInput } from '../../model/finding.ts';

export type Severity = 'error' | 'warning';

/**
 * Stable rule ids (documented in docs/integrators.md and docs/diagnostics.md), with their titles
 * from the diagnostics catalogue. Scripts and CI filters may rely on them: never rename one, only add.
 */
export type RuleId = LintRuleId;

export const RULES = Object.fromEntries(
  Object.entries(CATALOGUE)
    .filter(([, entry]) => (entry.sources as readonly string[]).includes('lint'))
    .map(([id, entry]) => [id, entry.title]),
) as Record<RuleId, string>;

/**
 * A lint finding is the one finding record (model/finding.ts), its code the rule id, always at a
 * JSON pointer (where the fact is, or should be), an error or a warning (a lint rule's severity
 * in the catalogue, or one step down); line and column are the pointer's (or its
 * nearest existing parent's) in the root file, and operation the operationId (or method and path).
 */
export type LintFinding = Finding<RuleId> & { pointer: string; severity: Severity };

/** What a rule hands over: the sink (a Diagnostics) decides the severity from the catalogue. */
export type LintInput = FindingInput<RuleId> & { pointer: string };

/** How a rule reports: `milder` for a case one step below its rule's severity (its message says why). */
export type Add = (f: LintInput, options?: { milder?: boolean }) => void;

export interface LintReport {
  spec: string;
  findings: LintFinding[];
  errors: number;
  warnings: number;
  operations: number;
  /** What loading and normalising found (the model's findings, catalogue codes): said apart. */
  description?: ModelFinding[];
}

/** HTTP statuses every operation declares (docs/service.md §4). */
export const ERROR_STATUSES = ['400', '401', '403', '404', '405', '415', '429', '500', '502'];
