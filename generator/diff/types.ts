/** What `dataapi diff` reports: one change at one place, and the report of a whole comparison. */
import type { RuleId, Severity } from './rules.ts';

export type Side = 'base' | 'head';

export interface Change {
  rule: RuleId;
  severity: Severity;
  message: string;
  /** The operation concerned: its operationId (HEAD's, or BASE's when removed), else its id. */
  operation?: string;
  /** BASE's operationId of a renamed operation (an allowance may name either). */
  previousOperation?: string;
  method?: string;
  path?: string;
  /** JSON pointer into the bundled description of `side` (following `$ref`s to where it is written). */
  pointer: string;
  /** Which description the pointer and line are in: HEAD, or BASE for what was removed. */
  side: Side;
  /** 1-based line in that side's root file, when the pointer is written there. */
  line?: number;
  /** Set when the change is accepted on purpose (`--allow` or `x-dataapi-allow-breaking`). */
  allowed?: { by: 'flag' | 'extension'; reason?: string };
}

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
