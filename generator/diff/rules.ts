/**
 * The rules of `dataapi diff`: one stable id per kind of change, with its severity and title. They
 * live in the diagnostics catalogue (model/diagnostics-diff.ts) with every other code.
 */
import { DIFF_RULES, type DiffRule, type DiffRuleId } from '../../model/diagnostics.ts';

export type Severity = DiffRule['severity'];

export const RULES = DIFF_RULES;

export type RuleId = DiffRuleId;

export const isRuleId = (id: string): id is RuleId => Object.hasOwn(RULES, id);

export const severityOf = (id: RuleId): Severity => RULES[id].severity;
