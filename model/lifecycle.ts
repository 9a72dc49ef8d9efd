/**
 * What a deprecated operation tells its callers on the wire, computed from the model alone so
 * that the server, the mock and the contract check agree: `Deprecation` (RFC 9745: a structured
 * field date, `@<unix seconds>`), `Sunset` (RFC 8594: an HTTP-date) when a sunset day is set, and
 * `Link: <path>; rel="successor-version"` (RFC 5829) to the successor.
 */
import type { Operation } from './types.ts';
import type { ServiceModel } from './service-model.ts';

/** A real calendar day written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Today as a calendar day in UTC (what `x-dataapi-sunset` is compared with). */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The start (00:00:00 UTC) of a calendar day. */
function startOf(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * The response headers of a deprecated operation (lower-case names), or undefined for one that is
 * not. Without `x-dataapi-deprecated-since` the date is `@0`: deprecated, since a day the
 * description does not give (RFC 9745 has no form without a date).
 */
export function deprecationHeaders(
  model: Pick<ServiceModel, 'operations'>,
  op: Operation,
): Record<string, string> | undefined {
  const d = op.deprecation;
  if (!op.deprecated || !d) return undefined;
  const since = d.since !== undefined ? startOf(d.since).getTime() / 1000 : 0;
  const headers: Record<string, string> = { deprecation: `@${since}` };
  if (d.sunset !== undefined) headers['sunset'] = startOf(d.sunset).toUTCString();
  const successor =
    d.successor !== undefined ? model.operations.find((o) => o.id === d.successor) : undefined;
  // A template's braces are not allowed in a URI reference: they are sent percent-encoded.
  if (successor)
    headers['link'] =
      `<${encodeURI(successor.path)}>; rel="successor-version"; title="${successor.id}"`;
  return headers;
}
