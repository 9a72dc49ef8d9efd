/**
 * The JSON report for tools: the ContractReport (the run's ContractRunResult plus the checks and
 * the computed coverage), pretty-printed with a stable key order. Documented in docs/reports.md.
 */
import type { ContractReport } from './report.ts';

export function renderJson(report: ContractReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
