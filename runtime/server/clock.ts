/**
 * Dates for envelopes: the current time as ISO text (computed at most once per millisecond, it
 * is on every answer), and a marker date that splits a serialised constant answer around it.
 */
let lastMs = 0;
let lastIso = '';
export function nowIso(): string {
  const t = Date.now();
  if (t !== lastMs) {
    lastMs = t;
    lastIso = new Date(t).toISOString();
  }
  return lastIso;
}
export const CLOCK = { toISOString: nowIso } as unknown as Date;
const DATE_MARK_TEXT = `\u0000dataapi-date-${Math.random().toString(36).slice(2)}\u0000`;
export const DATE_MARK = { toISOString: () => DATE_MARK_TEXT } as unknown as Date;
export const DATE_MARK_JSON = JSON.stringify(DATE_MARK_TEXT).slice(1, -1);
