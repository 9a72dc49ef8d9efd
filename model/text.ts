/** Text for messages (no dependencies: the packed client uses it too). */
/** Short, single-line excerpt of a value for messages. */
export function excerpt(value: unknown, max = 120): string {
  let text: string;
  try {
    text = jsonPrefix(value, max) ?? JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// Thrown to stop writing; made once, since making an Error costs more than the excerpt.
const UNPLAIN = new Error('not plain data');
const ENOUGH = new Error('long enough');

/**
 * The start of JSON.stringify(value), more than `max` characters of it (or all of it), written
 * without stringifying the rest: an excerpt of a large body costs what the excerpt does. Only
 * for plain data (what JSON.parse gives); anything else is undefined, for JSON.stringify.
 */
function jsonPrefix(value: unknown, max: number): string | undefined {
  const parts: string[] = [];
  let length = 0;
  const put = (s: string) => {
    parts.push(s);
    length += s.length;
    if (length > max) throw ENOUGH;
  };
  const skipped = (v: unknown) =>
    v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const write = (v: unknown): void => {
    if (v === null) return put('null');
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return put(JSON.stringify(v));
      case 'number':
        return put(Number.isFinite(v) ? JSON.stringify(v) : 'null');
      case 'object':
        break;
      default:
        throw UNPLAIN;
    }
    if (Array.isArray(v)) {
      put('[');
      for (let i = 0; i < v.length; i++) {
        if (i) put(',');
        if (skipped(v[i])) put('null');
        else write(v[i]);
      }
      return put(']');
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if ((proto !== Object.prototype && proto !== null) || 'toJSON' in (v as object)) throw UNPLAIN;
    put('{');
    let first = true;
    for (const [k, item] of Object.entries(v as object)) {
      if (skipped(item)) continue;
      put(`${first ? '' : ','}${JSON.stringify(k)}:`);
      first = false;
      write(item);
    }
    return put('}');
  };
  try {
    write(value);
  } catch (err) {
    if (err === UNPLAIN) return undefined;
    if (err !== ENOUGH) throw err;
  }
  return parts.join('');
}
