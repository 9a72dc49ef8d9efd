/** The short summary the runner prints after vitest's own output (reports are issue 7's). */
import type { ContractRunResult } from './results.ts';

export function printSummary(
  result: ContractRunResult,
  out: NodeJS.WritableStream,
  resultsFile: string,
): void {
  const s = result.summary;
  const ops = new Set(result.results.map((r) => r.operation)).size;
  const lines = [
    '',
    `dataapi contract: ${result.target.baseUrl}${result.target.embeddedMock ? ' (embedded mock)' : ''}`,
    `  ${ops} operations, ${result.results.length} checks: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped; ${s.requests} requests`,
  ];
  if (result.budgetExhausted) lines.push('  the request budget ran out: later checks were skipped');
  for (const r of result.results.filter((x) => x.status === 'failed'))
    lines.push(
      `  FAIL ${r.operation} ${r.check} (${r.variant})`,
      ...(r.request ? [`       ${r.request.method} ${r.request.url}`] : []),
      `       expected ${r.expected ?? '?'}; got ${r.actual ?? '?'}`,
    );
  for (const e of result.errors) lines.push(`  ERROR ${e}`);
  lines.push(`  results: ${resultsFile}`, '');
  out.write(lines.join('\n'));
}
