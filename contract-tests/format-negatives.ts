/**
 * Negative values of a string `format`: one value per format the toolkit's validator checks
 * (ajv-formats, model/validate.ts), refused by that validator, so the embedded mock refuses them
 * and a recheck agrees they are invalid. OpenAPI's width hints (int32, float, ...) and `binary`
 * or `password` are annotations the validator does not check: no value for them.
 *
 * Whether a target must refuse such a value is another matter: `format` is an annotation unless
 * the implementation asserts it (JSON Schema 2020-12 Validation §7.2; Draft 4 and Wright-00 §7:
 * implementations MAY validate it), so a target that accepts one is warned about
 * (`format-not-asserted`), not failed; checks/behaviour.ts decides that.
 */
import type { Obj } from 'dataapi/model';

/** Each value is plainly not of its format and stays one value in a URL, a header or a form. */
export const FORMAT_NEGATIVES: Readonly<Record<string, string>> = {
  uuid: 'not-a-uuid',
  date: 'not-a-date',
  time: 'not-a-time',
  'date-time': 'not-a-date-time',
  'iso-time': 'not-a-time',
  'iso-date-time': 'not-a-date-time',
  duration: 'not-a-duration',
  email: 'not-an-email',
  hostname: 'bad..hostname',
  ipv4: 'not-an-ipv4',
  ipv6: 'not-an-ipv6',
  uri: 'not-a-uri',
  url: 'not-a-url',
  'json-pointer': 'not-a-json-pointer',
  'relative-json-pointer': 'not-a-json-pointer',
  regex: '(unclosed',
  byte: '!not-base64!',
};

export interface FormatBad {
  value: string;
  why: string;
  /** `format`: invalid by the format alone; `pattern`: the schema's pattern refuses it too. */
  kind: 'format' | 'pattern';
}

/**
 * The value outside the string schema's format, when it has one the validator checks. A value
 * the schema's lengths refuse is left to the length cases; one its pattern refuses is invalid by
 * an assertion as well, so accepting it is a failure like any pattern's (kind `pattern`).
 */
export function formatNegative(s: Obj): FormatBad | undefined {
  const format = typeof s['format'] === 'string' ? s['format'] : undefined;
  const value = format !== undefined ? FORMAT_NEGATIVES[format] : undefined;
  if (format === undefined || value === undefined) return undefined;
  if ('const' in s || Array.isArray(s['enum'])) return undefined; // the enum cases cover it
  const len = [...value].length;
  if (typeof s['maxLength'] === 'number' && len > s['maxLength']) return undefined;
  if (typeof s['minLength'] === 'number' && len < s['minLength']) return undefined;
  const why = `not format ${format}`;
  if (typeof s['pattern'] === 'string' && refuses(s['pattern'], value))
    return { value, why: `${why}, nor pattern ${s['pattern']}`, kind: 'pattern' };
  return { value, why, kind: 'format' };
}

/** Whether a JSON Schema pattern (unanchored, as Ajv reads it) refuses the value; false if unreadable. */
function refuses(pattern: string, value: string): boolean {
  for (const flags of ['u', ''])
    try {
      return !new RegExp(pattern, flags).test(value);
    } catch {
      // not valid in this mode: try the next
    }
  return false;
}
