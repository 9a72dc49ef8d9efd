/**
 * `Retry-After` (RFC 9110 10.2.3) as a delay in milliseconds, read one way by the client and the
 * contract runner. The field is `HTTP-date / delay-seconds` with `delay-seconds = 1*DIGIT`: only
 * ASCII digits, no sign, exponent, hex, fraction or surrounding space. Anything else is not a
 * Retry-After and gives undefined (callers fall back to their own backoff). `Date.parse` is not
 * used: it reads "5" or "-1" as dates.
 */

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = DAYS.join('|');
const MONTH = MONTHS.join('|');
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
/** Obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850 = new RegExp(`^(?:${LONG_DAYS.join('|')}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
/** Obsolete asctime form: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = new RegExp(`^(?:${DAY}) (${MONTH}) (\\d{2}| \\d) ${TIME} (\\d{4})$`);

/** Epoch milliseconds of an HTTP-date in any of its three forms, or undefined. */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  let parts: [day: string, month: string, year: number, h: string, m: string, s: string];
  let match: RegExpExecArray | null;
  if ((match = IMF.exec(text))) {
    const [, d, mon, y, h, m, s] = match as unknown as string[];
    parts = [d!, mon!, Number(y), h!, m!, s!];
  } else if ((match = RFC850.exec(text))) {
    const [, d, mon, yy, h, m, s] = match as unknown as string[];
    // RFC 9110 5.6.7: a two-digit year more than 50 years ahead is the latest past such year.
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    parts = [d!, mon!, year, h!, m!, s!];
  } else if ((match = ASCTIME.exec(text))) {
    const [, mon, d, h, m, s, y] = match as unknown as string[];
    parts = [d!.trim(), mon!, Number(y), h!, m!, s!];
  } else return undefined;
  const [d, mon, year, h, m, s] = parts;
  const month = MONTHS.indexOf(mon);
  const at = Date.UTC(year, month, Number(d), Number(h), Number(m), Number(s));
  const back = new Date(at);
  // Reject what Date.UTC would roll over (31 Feb, 25:00:00; a leap second 60 too).
  if (
    back.getUTCDate() !== Number(d) ||
    back.getUTCMonth() !== month ||
    back.getUTCHours() !== Number(h) ||
    back.getUTCMinutes() !== Number(m) ||
    back.getUTCSeconds() !== Number(s)
  )
    return undefined;
  return at;
}

/**
 * How long a `Retry-After` value asks to wait, in milliseconds from `now` (a date in the past
 * gives 0); undefined when the header is absent or is not delay-seconds or an HTTP-date.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  const at = parseHttpDate(value, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}
