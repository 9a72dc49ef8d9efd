import type { ModelFinding } from '../../model/service-model.ts';
/** Findings of `dataapi lint`: one rule broken at one place of the description. */
import { CATALOGUE, type LintRuleId } from '../../model/diagnostics.ts';

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

export interface Finding {
  rule: RuleId;
  severity: Severity;
  message: string;
  /** JSON pointer into the description (where the fact is, or should be). */
  pointer: string;
  /** 1-based line and column of the pointer (or its nearest existing parent) in the root file. */
  line?: number;
  column?: number;
  /** The operation concerned (its operationId, or method and path). */
  operation?: string;
}

export interface LintReport {
  spec: string;
  findings: Finding[];
  errors: number;
  warnings: number;
  operations: number;
  /** What loading and normalising found (the model's findings, catalogue codes): said apart. */
  description?: ModelFinding[];
}

/** HTTP statuses every operation declares (docs/service.md §4). */
export const ERROR_STATUSES = ['400', '401', '403', '404', '405', '415', '429', '500', '502'];
