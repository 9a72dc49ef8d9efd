/**
 * One generated request judged by the existing checks (checks/registry.ts), exactly as the fixed
 * suite's requests are: what fails a check is a failure to shrink; what the description is to
 * blame for is a warning.
 */
import type { ServiceModel } from 'dataapi/model';
import { JUDGED_CHECKS, type CheckName } from '../checks/registry.ts';
import type { ContractConfig } from '../config.ts';
import type { Probe } from '../probe.ts';
import type { DescriptionWarning } from '../warnings.ts';
import { verdictsOf, warningOf } from '../checks/verdict.ts';

export interface Failure {
  check: string;
  expected: string;
  actual: string;
}

export interface Judged {
  failures: Failure[];
  warnings: DescriptionWarning[];
}

export function judgeProbe(model: ServiceModel, probe: Probe, config: ContractConfig): Judged {
  const failures: Failure[] = [];
  const warnings: DescriptionWarning[] = [];
  const ctx = { model, op: probe.op, set: { variant: 'main' as const, probes: [probe] }, config };
  for (const d of JUDGED_CHECKS) {
    if (config.checks && !config.checks.includes(d.name as CheckName)) continue; // --checks, --exclude-checks
    for (const f of verdictsOf(d.name as CheckName, d.judge(ctx).violations, config.severity)) {
      if (f.severity === 'warning') warnings.push(warningOf(f, probe.op));
      else
        failures.push({
          check: d.name,
          expected: f.violation.expected,
          actual: f.violation.actual,
        });
    }
  }
  return { failures, warnings };
}

/** What tells two failures apart (later rounds look for failures of another kind). */
export const signature = (f: Failure, link = '') => `${link}|${f.check}|${f.actual}`;
