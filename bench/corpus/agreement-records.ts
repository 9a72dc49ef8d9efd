/**
 * The agreement run's results file (one JSON line per description; a rerun skips what is there, the
 * last line of an id wins) and the docs/corpus.md section written from it, whole or in part.
 */
import { readFile } from 'node:fs/promises';
import { classOf, type Finding } from './agreement.ts';
import { unknownFindings, type KnownDisagreement } from './agreement-known.ts';

export interface AgreementTotals {
  operations: number;
  parameters: number;
  bodies: number;
  invalid: number;
}

/**
 * One description's run. `unloadable`: the model did not load (stage 1's finding); `threw`: the
 * agreement itself threw (one finding says so); `timeout`/`crashed`: its time bound passed or its
 * process died, so nothing of it is known.
 */
export interface AgreementRecord {
  id: string;
  outcome: 'ok' | 'unloadable' | 'threw' | 'timeout' | 'crashed';
  ms: number;
  at: string;
  totals?: AgreementTotals;
  findings: (Finding & { class: string; known: boolean })[];
  message?: string;
}

/** Every record of a results file (a missing file is none; a torn last line is skipped). */
export async function readAgreementRecords(file: string): Promise<AgreementRecord[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const out: AgreementRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as AgreementRecord);
    } catch {
      /* a line cut short by a stopped run: that id runs again */
    }
  }
  return out;
}

/** The last record of each id (a rerun of an id replaces its earlier line). */
export function latestAgreement(records: AgreementRecord[]): Map<string, AgreementRecord> {
  const m = new Map<string, AgreementRecord>();
  for (const r of records) m.set(r.id, r);
  return m;
}

/** The ids still to run: those without a record, in the order given. */
export function agreementTodo(ids: string[], done: Map<string, AgreementRecord>): string[] {
  return ids.filter((id) => !done.has(id));
}

export interface SectionInput {
  name: string;
  title: string;
  seed: number;
  /** The corpus's ids, sorted: the table's examples are the first in this order. */
  ids: string[];
  records: Map<string, AgreementRecord>;
  known: KnownDisagreement[];
  /** The time bound per description, seconds (said when one passed it). */
  timeoutS: number;
}

export interface Section {
  text: string;
  /** A finding that agreement-known.json does not list. */
  unknown: boolean;
}

/** The docs section; over every id it reads as a whole run always has, in part it says how much ran. */
export function agreementSection(input: SectionInput): Section {
  const byClass = new Map<
    string,
    { count: number; ids: Set<string>; example: string; known: boolean }
  >();
  const totals = {
    descriptions: 0,
    unloadable: 0,
    operations: 0,
    parameters: 0,
    bodies: 0,
    invalid: 0,
  };
  const unbounded: AgreementRecord[] = [];
  for (const id of input.ids) {
    const r = input.records.get(id);
    if (!r) continue;
    if (r.outcome === 'timeout' || r.outcome === 'crashed') {
      unbounded.push(r);
      continue;
    }
    totals.descriptions++;
    if (r.outcome === 'unloadable') {
      totals.unloadable++;
      continue;
    }
    for (const k of ['operations', 'parameters', 'bodies', 'invalid'] as const)
      totals[k] += r.totals?.[k] ?? 0;
    // Known is decided now, from the list as it is, not as it was when the line was written.
    const findings: Finding[] = r.findings.map(({ class: _c, known: _k, ...f }) => f);
    const unknown = new Set(unknownFindings(id, findings, input.known));
    for (const f of findings) {
      const key = classOf(f);
      const c = byClass.get(key) ?? { count: 0, ids: new Set(), example: '', known: true };
      c.count++;
      c.ids.add(id);
      c.example ||= `\`${id}\` ${f.operation} ${f.name}: ${f.detail}`
        .replace(/\|/g, '\\|')
        .replace(/\n/g, ' ')
        .slice(0, 240);
      if (unknown.has(f)) c.known = false;
      byClass.set(key, c);
    }
  }
  const run = input.ids.filter((id) => input.records.has(id)).length;
  const whole = run === input.ids.length;
  const rows = [...byClass].sort((a, b) => b[1].count - a[1].count);
  const coverage = whole
    ? []
    : [
        `Coverage of this record: **${run.toLocaleString('en-US')} of ${input.ids.length.toLocaleString('en-US')}** descriptions run; the figures say nothing about the rest (\`npm run corpus -- --corpus ${input.name} --agreement\` resumes the run).`,
        '',
      ];
  const bound = unbounded.length
    ? [
        `${unbounded.length} description${unbounded.length === 1 ? '' : 's'} did not finish (a time bound of ${input.timeoutS} s, or the process died) and ${unbounded.length === 1 ? 'is' : 'are'} not counted above: ${unbounded
          .slice(0, 10)
          .map((r) => `\`${r.id}\` (${r.outcome})`)
          .join(', ')}${unbounded.length > 10 ? ', …' : ''}.`,
        '',
      ]
    : [];
  const text = [
    `<!-- agreement:${input.name} -->`,
    '',
    `### Agreement by construction: ${input.title}`,
    '',
    ...coverage,
    `Written by \`npm run corpus -- --corpus ${input.name} --agreement\` (bench/corpus/agreement-run.ts, seeded with ${input.seed}, one valid value per parameter and body): every parameter and request body of ${totals.descriptions - totals.unloadable} descriptions (${totals.unloadable} did not load: stage 1's finding), ${totals.operations} operations; ${totals.parameters} parameters and ${totals.bodies} bodies sent valid, serialised as the suite sends them and read back as the mock and the server stubs read them (no server, no HTTP); ${totals.invalid} invalid values sent, each to be refused for the reason it was made. Known classes are listed in bench/corpus/agreement-known.json with their reasons.`,
    '',
    ...bound,
    ...(rows.length
      ? [
          '| class | findings | descriptions | known | example |',
          '| --- | ---: | ---: | --- | --- |',
          ...rows.map(
            ([k, c]) =>
              `| ${k} | ${c.count} | ${c.ids.size} | ${c.known ? 'yes' : '**no**'} | ${c.example} |`,
          ),
        ]
      : ['No disagreement.']),
    '',
    `<!-- /agreement:${input.name} -->`,
  ].join('\n');
  return { text, unknown: rows.some(([, c]) => !c.known) };
}

/** `doc` with the section put in place of its earlier one (or appended). */
export function withSection(doc: string, name: string, section: string): string {
  const open = `<!-- agreement:${name} -->`;
  const close = `<!-- /agreement:${name} -->`;
  return doc.includes(open)
    ? doc.slice(0, doc.indexOf(open)) + section + doc.slice(doc.indexOf(close) + close.length)
    : `${doc.trimEnd()}\n\n${section}\n`;
}
