/**
 * Which exchanges' records the traffic's reports keep (log.ts): every failing one up to a
 * ceiling, the first few of each operation and variant, and any that adds coverage (a new status,
 * business code or parameter). A judging thread applies the same rule to what it has judged and
 * sends back only the records it may keep: writing and copying the rest cost more than judging.
 */
import type { ExchangeRecord } from '../exchange.ts';

/** Exchanges kept per operation and variant beyond those that add coverage. */
export const SAMPLE = 20;
/** Failing exchanges kept per operation and variant. */
export const KEPT = 200;

/** What an exchange adds to coverage. */
export const marksOf = (r: ExchangeRecord): string[] => [
  `s${r.status}`,
  `c${r.businessCode}`,
  ...r.parameters.map((p) => `p${p}`),
];

/**
 * A judging thread's side of the rule. It sends a superset of what the log keeps: a record the
 * log would keep for coverage adds a mark this thread has not seen either (its marks all came to
 * the log with records it sent), and while the log holds fewer than SAMPLE it has refused none,
 * so this thread has sent fewer than SAMPLE too. Failing records are always sent.
 */
export class RecordSample {
  private rows = new Map<string, { sent: number; seen: Set<string> }>();

  wanted(operation: string, variant: string, record: ExchangeRecord, failing: boolean): boolean {
    const key = `${operation}\u0000${variant}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { sent: 0, seen: new Set() }));
    let fresh = false;
    for (const m of marksOf(record))
      if (!row.seen.has(m)) {
        row.seen.add(m);
        fresh = true;
      }
    const wanted = failing || fresh || row.sent < SAMPLE;
    if (wanted) row.sent++;
    return wanted;
  }
}
