/** What `dataapi diff` reports: one change at one place, and the report of a whole comparison. */
import type { Finding } from '../../model/finding.ts';
import type { RuleId, Severity } from './rules.ts';

export type Side = 'base' | 'head';

/**
 * A change is the one finding record (model/finding.ts): its code the diff rule id, its severity
 * the catalogue's (breaking, warning or compatible), `operation` the operationId (HEAD's, or
 * BASE's when removed, else its id), `pointer` into the bundled description of `side` (following
 * `$ref`s to where it is written) and `line` in that side's root file when the pointer is written
 * there. What only a change carries is added here.
 */
export type Change = Finding<RuleId> & {
  severity: Severity;
  pointer: string;
  /** BASE's operationId of a renamed operation (an allowance may name either). */
  previousOperation?: string;
  /** The operation's method (upper case) and path: the changelog groups by them. */
  method?: string;
  path?: string;
  /** Which description the pointer and line are in: HEAD, or BASE for what was removed. */
  side: Side;
  /** Set when the change is accepted on purpose (`--allow` or `x-dataapi-allow-breaking`). */
  allowed?: { by: 'flag' | 'extension'; reason?: string };
};

/** An accepted change that matched nothing: probably stale, worth removing. */
export interface UnusedAllowance {
  rule: string;
  operation?: string;
  by: 'flag' | 'extension';
  pointer?: string;
}

export interface DiffReport {
  base: string;
  head: string;
  changes: Change[];
  unusedAllowances: UnusedAllowance[];
  summary: { breaking: number; warning: number; compatible: number; allowed: number };
}
