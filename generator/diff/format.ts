/** The report as text (terminals, CI logs), JSON (tools) and Markdown (a pull-request comment). */
import { changelog, sarif } from './changelog.ts';
import { RULES } from './rules.ts';
import type { Change, DiffReport } from './types.ts';

export type DiffFormat = 'text' | 'json' | 'markdown' | 'changelog' | 'sarif';

/** The first line of the Markdown report: CI finds its own comment by it and updates it. */
export const MARKDOWN_MARKER = '<!-- dataapi-diff -->';
/** GitHub refuses comments above 65,536 characters. */
const MARKDOWN_BUDGET = 60_000;

export function formatReport(report: DiffReport, format: DiffFormat): string {
  if (format === 'json')
    return `${JSON.stringify({ version: 1, ...report, changes: report.changes.map(changeJson) }, null, 2)}\n`;
  if (format === 'changelog') return changelog(report);
  if (format === 'sarif') return sarif(report);
  return format === 'markdown' ? markdown(report) : text(report);
}

/**
 * A change as `--format json` has always written it: the code under `rule`, then the rest in
 * this order (scripts read these keys; the record's own names stay inside the toolkit).
 */
const changeJson = (c: Change) => ({
  rule: c.code,
  severity: c.severity,
  message: c.message,
  operation: c.operation,
  previousOperation: c.previousOperation,
  method: c.method,
  path: c.path,
  pointer: c.pointer,
  side: c.side,
  line: c.line,
  allowed: c.allowed,
});

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function counts(r: DiffReport): string {
  const s = r.summary;
  return `${s.breaking} breaking, ${plural(s.warning, 'warning')}, ${s.compatible} compatible${s.allowed > 0 ? `, ${s.allowed} accepted on purpose` : ''}`;
}

const operationOf = (c: Change) =>
  c.method !== undefined
    ? `${c.method} ${c.path}${c.operation ? ` (${c.operation})` : ''}`
    : 'service';

function place(r: DiffReport, c: Change): string {
  const file = c.side === 'base' ? r.base : r.head;
  return `${file}${c.line !== undefined ? `:${c.line}` : ''} #${c.pointer}${c.side === 'base' ? ' (BASE)' : ''}`;
}

function text(r: DiffReport): string {
  const lines = [`dataapi diff: ${r.base} -> ${r.head}`, counts(r), ''];
  if (r.changes.length === 0) lines.push('No changes to the contract.', '');
  for (const c of r.changes) {
    const tag = c.allowed ? 'accepted' : c.severity;
    lines.push(`${tag.toUpperCase().padEnd(10)} ${c.code}  ${operationOf(c)}`);
    lines.push(`           ${c.message}`);
    lines.push(`           at ${place(r, c)}`);
    if (c.allowed)
      lines.push(
        `           accepted by ${c.allowed.by === 'flag' ? '--allow' : 'x-dataapi-allow-breaking'}${c.allowed.reason ? `: ${c.allowed.reason}` : ''}`,
      );
  }
  for (const u of r.unusedAllowances)
    lines.push(
      `note: ${u.by === 'flag' ? '--allow' : 'x-dataapi-allow-breaking'} ${u.rule}${u.operation ? `:${u.operation}` : ''} matched no change${u.pointer ? ` (#${u.pointer})` : ''}`,
    );
  if (r.summary.breaking > 0)
    lines.push(
      '',
      'Breaking changes found. Accept one on purpose with --allow RULE[:operationId] or x-dataapi-allow-breaking (with a reason) in the description.',
    );
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Table cell text: no line breaks, pipes or HTML. */
const cell = (s: string) =>
  s
    .replace(/\r?\n/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
const code = (s: string) =>
  `\`${s.replace(/`/g, "'").replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}\``;

function table(
  r: DiffReport,
  changes: Change[],
  budget: { left: number },
  reason = false,
): string[] {
  const head = reason
    ? ['| Operation | Rule | Change | Reason |', '| --- | --- | --- | --- |']
    : ['| Operation | Rule | Change | Where |', '| --- | --- | --- | --- |'];
  const rows: string[] = [];
  for (const [i, c] of changes.entries()) {
    const last = reason
      ? cell(c.allowed?.reason ?? (c.allowed?.by === 'flag' ? '--allow' : ''))
      : code(place(r, c));
    const row = `| ${cell(operationOf(c))} | ${code(c.code)} | ${cell(c.message)} | ${last} |`;
    if (row.length > budget.left) {
      rows.push(
        `| | | … and ${changes.length - i} more: run \`dataapi diff --format json\` for all | |`,
      );
      budget.left = 0;
      break;
    }
    budget.left -= row.length + 1;
    rows.push(row);
  }
  return [...head, ...rows];
}

function markdown(r: DiffReport): string {
  const s = r.summary;
  const status =
    s.breaking > 0 ? `${plural(s.breaking, 'breaking change')}` : 'no breaking changes';
  const out = [
    MARKDOWN_MARKER,
    `## dataapi diff: ${status}`,
    '',
    `${code(r.base)} → ${code(r.head)}: ${counts(r)}.`,
  ];
  const budget = { left: MARKDOWN_BUDGET };
  const open = r.changes.filter((c) => !c.allowed);
  const section = (title: string, list: Change[]) => {
    if (list.length === 0) return;
    out.push('', `### ${title}`, '', ...table(r, list, budget));
  };
  section(
    'Breaking',
    open.filter((c) => c.severity === 'breaking'),
  );
  section(
    'Warnings (break only strict clients)',
    open.filter((c) => c.severity === 'warning'),
  );
  const compatible = open.filter((c) => c.severity === 'compatible');
  if (compatible.length > 0)
    out.push(
      '',
      `<details><summary>${plural(compatible.length, 'compatible change')}</summary>`,
      '',
      ...table(r, compatible, budget),
      '',
      '</details>',
    );
  const accepted = r.changes.filter((c) => c.allowed);
  if (accepted.length > 0)
    out.push('', '### Accepted on purpose', '', ...table(r, accepted, budget, true));
  if (r.unusedAllowances.length > 0) {
    out.push('', 'Allowances that matched no change (stale?):', '');
    for (const u of r.unusedAllowances)
      out.push(
        `- ${code(`${u.rule}${u.operation ? `:${u.operation}` : ''}`)} (${u.by === 'flag' ? '--allow' : 'x-dataapi-allow-breaking'})`,
      );
  }
  if (r.changes.length === 0) out.push('', 'No changes to the contract.');
  if (s.breaking > 0)
    out.push(
      '',
      'To accept a breaking change on purpose, add it to `x-dataapi-allow-breaking` in the description with a reason, or pass `--allow RULE[:operationId]`.',
    );
  return `${out.join('\n')}\n`;
}

export const ruleTitle = (rule: keyof typeof RULES) => RULES[rule].title;
