/**
 * `application/x-www-form-urlencoded` bodies as OpenAPI's `encoding` says (style form or
 * deepObject, explode, the delimited styles): the one writer the client and the contract suite
 * share. An object field without an encoding is written in the bracket form (`metadata[k]=v`),
 * which dataapi's servers and most others read; never as JSON text. So is a list of objects
 * (`items[0][id]=1`). A null is an empty field (a form has no null).
 */

/** The `encoding` of one form field (OpenAPI Encoding Object: only what serialisation needs). */
export interface FormEncoding {
  style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode?: boolean;
}

const text = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : v === null || v === undefined
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);

const DELIMITER = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' } as const;

const nested = (v: unknown) => typeof v === 'object' && v !== null;

/**
 * `name[a]=1`, `name[b][c]=2`, `name[list][]`... for an object: a list of scalars as repeated
 * `[]`, a list of objects or lists by index (`name[list][0][c]=3`), as `[]` cannot say which
 * item a key belongs to.
 */
function brackets(name: string, value: unknown, out: [string, string][], depth = 0): void {
  if (Array.isArray(value) && depth > 0) {
    const indexed = value.some(nested);
    value.forEach((item, i) => brackets(`${name}[${indexed ? i : ''}]`, item, out, depth + 1));
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && depth < 16) {
    for (const [k, v] of Object.entries(value))
      if (v !== undefined) brackets(`${name}[${k}]`, v, out, depth + 1);
  } else out.push([name, text(value)]);
}

/** The name/value pairs of a form body (unencoded; URLSearchParams encodes them). */
export function formPairs(
  body: Record<string, unknown>,
  encoding: Record<string, FormEncoding> = {},
): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const enc = encoding[name];
    const style = enc?.style ?? 'form';
    const explode = enc?.explode ?? style === 'form';
    if (Array.isArray(value)) {
      // Objects in a list without an encoding: in the bracket form by index, as objects are.
      if ((enc === undefined || style === 'deepObject') && value.some(nested))
        brackets(name, value, out, 1);
      else if (explode || style === 'deepObject') for (const v of value) out.push([name, text(v)]);
      else out.push([name, value.map(text).join(DELIMITER[style])]);
    } else if (typeof value === 'object' && value !== null) {
      if (enc === undefined || style === 'deepObject') brackets(name, value, out);
      else if (explode) for (const [k, v] of Object.entries(value)) out.push([k, text(v)]);
      else
        out.push([
          name,
          Object.entries(value)
            .flatMap(([k, v]) => [k, text(v)])
            .join(','),
        ]);
    } else out.push([name, text(value)]);
  }
  return out;
}

/** A form body as its wire text. */
export function encodeForm(
  body: Record<string, unknown>,
  encoding?: Record<string, FormEncoding>,
): string {
  return new URLSearchParams(formPairs(body, encoding)).toString();
}
