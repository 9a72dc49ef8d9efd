/**
 * Two more renderings of a diff report: `changelog` (Markdown release notes, grouped by operation
 * and then by severity) and `sarif` (SARIF 2.1.0 for code scanning: one result per change, at its
 * file and line).
 */
import { sarifLog, toolVersion, type SarifLevel } from '../sarif.ts';
import { RULES } from './rules.ts';
import type { Change, DiffReport } from './types.ts';
import type { Severity } from './rules.ts';

const SEVERITIES: { severity: Severity; title: string }[] = [
  { severity: 'breaking', title: 'Breaking' },
  { severity: 'warning', title: 'May break strict clients' },
  { severity: 'compatible', title: 'Compatible' },
];

/** Inline Markdown text: no line breaks, no HTML, no emphasis or link syntax from the spec. */
const inline = (s: string) => s.replace(/\r?\n/g, ' ').replace(/([\\`*_[\]<>|#])/g, '\\$1');

const groupOf = (c: Change) =>
  c.method !== undefined ? `${c.method} ${c.path}${c.operation ? ` (${c.operation})` : ''}` : '';

/** Release notes: `## GET /v1/news (listNews)`, then a list per severity; the service last. */
export function changelog(r: DiffReport): string {
  const s = r.summary;
  const out = [
    `# API changes: ${inline(r.base)} → ${inline(r.head)}`,
    '',
    `${s.breaking} breaking, ${s.warning} that may break strict clients, ${s.compatible} compatible${s.allowed > 0 ? ` (${s.allowed} breaking accepted on purpose)` : ''}.`,
  ];
  const groups = new Map<string, Change[]>();
  for (const c of r.changes) groups.set(groupOf(c), [...(groups.get(groupOf(c)) ?? []), c]);
  const names = [...groups.keys()].sort((a, b) =>
    a === '' ? 1 : b === '' ? -1 : a.localeCompare(b, 'en'),
  );
  for (const name of names) {
    out.push('', `## ${name === '' ? 'The service' : inline(name)}`);
    const list = groups.get(name)!;
    for (const { severity, title } of SEVERITIES) {
      const here = list.filter((c) => c.severity === severity);
      if (here.length === 0) continue;
      out.push('', `### ${title}`, '');
      for (const c of here) {
        const accepted = c.allowed
          ? ` (accepted${c.allowed.reason ? `: ${inline(c.allowed.reason)}` : ''})`
          : '';
        out.push(`- ${inline(c.message)} \`${c.code}\`${accepted}`);
      }
    }
  }
  if (r.changes.length === 0) out.push('', 'No changes to the contract.');
  return `${out.join('\n')}\n`;
}

const LEVEL: Record<Severity, SarifLevel> = {
  breaking: 'error',
  warning: 'warning',
  compatible: 'note',
};

/**
 * SARIF: a change in HEAD is at its line; a removal is in BASE, whose lines are not the analysed
 * commit's, so it is located at the file alone (its BASE line is in the message).
 */
export function sarif(r: DiffReport): string {
  const used = [...new Set(r.changes.map((c) => c.code))].sort();
  return sarifLog(
    { name: 'dataapi diff', version: toolVersion() },
    used.map((id) => ({ id, description: RULES[id].title, level: LEVEL[RULES[id].severity] })),
    r.changes.map((c) => {
      const base = c.side === 'base';
      return {
        ruleId: c.code,
        level: LEVEL[c.severity],
        message: `${c.message}${base ? ` (in BASE ${r.base}${c.line !== undefined ? `:${c.line}` : ''})` : ''}`,
        file: r.head,
        ...(!base && c.line !== undefined ? { line: c.line } : {}),
        ...(c.method !== undefined ? { logical: groupOf(c) } : {}),
        ...(c.allowed
          ? {
              suppressed:
                c.allowed.reason ??
                `accepted by ${c.allowed.by === 'flag' ? '--allow' : 'x-dataapi-allow-breaking'}`,
            }
          : {}),
        properties: { pointer: c.pointer, side: c.side, severity: c.severity },
      };
    }),
  );
}
