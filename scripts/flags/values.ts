/**
 * The value checks of the flag tables: a flag that declares its value's kind (`int`, `port`,
 * `url`, `day`, or one of its `choices`) is checked here, on the command line (scripts/args.ts) and in the configuration
 * file (scripts/config/active.ts), with one wording per kind (issue 47: each command wrote its
 * own). A bad value is a UsageError (exit 2).
 */
import { isCalendarDay } from '../../model/lifecycle.ts';
import { didYouMean } from '../../model/suggest.ts';
import { UsageError } from '../args-error.ts';
import type { Flag } from './declare.ts';

/** What is wrong with a flag's value, as the rest of `<where> must be ...`; undefined: nothing. */
export function valueFault(flag: Flag, value: string): string | undefined {
  const got = `, got ${JSON.stringify(value)}`;
  if (flag.int) {
    const { min, max, unit } = flag.int;
    const n = Number(value);
    const whole = /^-?\d+$/.test(value) && Number.isSafeInteger(n);
    if (whole && n >= (min ?? -Infinity) && n <= (max ?? Infinity)) return undefined;
    const of = unit ? ` of ${unit}` : '';
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? `, at least ${min}`
          : max !== undefined
            ? `, at most ${max}`
            : '';
    return `must be a whole number${of}${range}${got}`;
  }
  if (flag.port)
    return /^\d+$/.test(value) && Number(value) <= 65535
      ? undefined
      : `must be a port number (0 to 65535)${got}`;
  if (flag.day) return isCalendarDay(value) ? undefined : `must be a day YYYY-MM-DD${got}`;
  // One word of a list (a comma list or a repeated flag is checked by its command: its items).
  if (flag.choices && flag.type === 'string' && !flag.comma) {
    const word = flag.anyCase ? value.toLowerCase() : value;
    if (flag.choices.includes(word)) return undefined;
    const names = flag.choices;
    return `must be ${names.slice(0, -1).join(', ')} or ${names.at(-1)}${got}${didYouMean(value, names)}`;
  }
  if (flag.url) {
    const schemes = flag.url;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^/?#]/i.exec(value)?.[1]?.toLowerCase();
    if (scheme !== undefined && schemes.includes(scheme)) return undefined;
    const names = schemes.map((s) => `${s}://`);
    const article = /^[aeiou]|^h/i.test(schemes[0] ?? '') ? 'an' : 'a';
    // The value as said back: no password, no query or fragment (a key may be in either).
    const shown = value.replace(/\/\/[^/@?#]*@/, '//…@').replace(/[?#].*$/, '?…');
    return `must be ${article} ${names.slice(0, -1).join(', ')}${names.length > 1 ? ' or ' : ''}${names.at(-1)} URL, got ${JSON.stringify(shown)}`;
  }
  return undefined;
}

/** Throws the UsageError of a bad value: `where` names the flag or the setting. */
export function checkValue(
  where: string,
  flag: Flag,
  value: string | boolean | readonly string[] | undefined,
  after = '',
): void {
  if (typeof value !== 'string') return;
  const fault = valueFault(flag, value);
  if (fault !== undefined) throw new UsageError(`${where} ${fault}${after}`);
}
