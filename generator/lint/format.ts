/** Text and JSON renderings of a lint report. */
import { sarifLog, toolVersion } from '../sarif.ts';
import { RULES, type LintReport } from './types.ts';

/** One line per finding, `file:line:col  severity  rule  message  (#pointer)`, then a summary. */
export function formatText(report: LintReport): string {
  const lines = report.findings.map((f) => {
    const where = f.line !== undefined ? `${report.spec}:${f.line}:${f.column ?? 1}` : report.spec;
    const op = f.operation !== undefined ? `${f.operation}: ` : '';
    return `${where}  ${f.severity.padEnd(7)}  ${f.code}  ${op}${f.message}  (#${f.pointer})`;
  });
  const summary =
    report.errors + report.warnings === 0
      ? `dataapi lint: ${report.spec}: ${report.operations} operations, no problems`
      : `dataapi lint: ${report.spec}: ${report.operations} operations, ${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}`;
  return [...lines, summary].join('\n') + '\n';
}

/**
 * Stable JSON for tools: { spec, operations, errors, warnings, findings: [{ rule, severity,
 * message, pointer, line, column, operation }] }, findings ordered by line.
 */
export function formatJson(report: LintReport): string {
  return (
    JSON.stringify(
      {
        spec: report.spec,
        operations: report.operations,
        errors: report.errors,
        warnings: report.warnings,
        // `rule` is the finding's code: the key tools read since lint's first release.
        findings: report.findings.map((f) => ({
          rule: f.code,
          severity: f.severity,
          message: f.message,
          pointer: f.pointer,
          line: f.line ?? null,
          column: f.column ?? null,
          operation: f.operation ?? null,
        })),
      },
      null,
      2,
    ) + '\n'
  );
}

/** SARIF 2.1.0 for code scanning: one result per finding, at the description's line and column. */
export function formatSarif(report: LintReport): string {
  const used = [...new Set(report.findings.map((f) => f.code))].sort();
  return sarifLog(
    { name: 'dataapi lint', version: toolVersion() },
    used.map((id) => ({
      id,
      description: RULES[id],
      level: report.findings.some((f) => f.code === id && f.severity === 'error')
        ? 'error'
        : 'warning',
    })),
    report.findings.map((f) => ({
      ruleId: f.code,
      level: f.severity,
      message: `${f.operation !== undefined ? `${f.operation}: ` : ''}${f.message}`,
      file: report.spec,
      ...(f.line !== undefined ? { line: f.line } : {}),
      ...(f.column !== undefined ? { column: f.column } : {}),
      ...(f.operation !== undefined ? { logical: f.operation } : {}),
      properties: { pointer: f.pointer },
    })),
  );
}
