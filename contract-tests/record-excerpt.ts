/**
 * A record's response excerpt, written when first asked for. The proxy judges most exchanges
 * without a finding and keeps few of their records (proxy/record-sample.ts): writing every
 * excerpt up front was a fifth of a judging thread's busy time. The value it is written from is
 * held under a symbol on the record, a data property like the others: a getter made per record
 * had kept every judged body alive through the young generation's collections, and neither a
 * structured clone nor JSON carries a symbol's property.
 */
import { excerpt, type Redactor } from 'dataapi/runtime/shared';
import type { ExchangeRecord } from './exchange.ts';

const SOURCE = Symbol('excerpt source');
type Deferred = ExchangeRecord & { [SOURCE]?: { value: unknown; redactor: Redactor } | undefined };

/** The record's excerpt is `value`'s, redacted, when first read through excerptOf. */
export function deferExcerpt(record: ExchangeRecord, value: unknown, redactor: Redactor): void {
  // Its place among the fields is kept (records are written out in their fields' order).
  record.excerpt = undefined;
  (record as Deferred)[SOURCE] = { value, redactor };
}

/** The record's excerpt, written now if it was deferred (and the value it came from let go). */
export function excerptOf(record: ExchangeRecord): string | undefined {
  const deferred = (record as Deferred)[SOURCE];
  if (deferred) {
    record.excerpt = deferred.redactor.text(excerpt(deferred.value, 200));
    (record as Deferred)[SOURCE] = undefined;
  }
  return record.excerpt;
}
