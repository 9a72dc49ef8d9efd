/**
 * One generated request judged by the one judge (checks/judge-exchange.ts), exactly as the fixed
 * suite's and the proxy's exchanges are: a finding of severity failure is a failure to shrink;
 * one of severity warning (the description to blame, or a check the user set to warning) is a
 * warning.
 */
import type { CheckCode, ServiceModel, WarningCode } from 'dataapi/model';
import { CHECKS } from '../checks/registry.ts';
import { exchangeSink, judgeExchange, type CheckFinding } from '../checks/judge-exchange.ts';
import type { ContractConfig } from '../config.ts';
import type { Probe } from '../probe.ts';
import type { DescriptionWarning } from '../warnings.ts';

export interface Failure {
  check: string;
  expected: string;
  actual: string;
}

export interface Judged {
  /** The judge's findings, which the failures and warnings are. */
  findings: CheckFinding[];
  failures: Failure[];
  warnings: DescriptionWarning[];
}

export function judgeProbe(model: ServiceModel, probe: Probe, config: ContractConfig): Judged {
  const failures: Failure[] = [];
  const warnings: DescriptionWarning[] = [];
  const ctx = { model, op: probe.op, set: { variant: 'main' as const, probes: [probe] }, config };
  // --checks, --exclude-checks
  const checks = config.checks ? CHECKS.filter((c) => config.checks!.includes(c)) : CHECKS;
  const findings = judgeExchange(ctx, checks, exchangeSink(config.severity));
  for (const { check, finding: f } of findings) {
    if (f.severity === 'failure')
      failures.push({ check, expected: f.evidence!.expected!, actual: f.evidence!.actual! });
    else
      warnings.push({
        code: f.code as WarningCode | CheckCode,
        pointer: f.pointer!,
        operation: f.operation!,
        message: f.message,
      });
  }
  return { findings, failures, warnings };
}

/** What tells two failures apart (later rounds look for failures of another kind). */
export const signature = (f: Failure, link = '') => `${link}|${f.check}|${f.actual}`;
