/**
 * The one way the key is hidden: by value, never by structure. A report is made of names (operation
 * ids, check names, JSON keys, XML tags, paths of preview URLs, percentages) and of values (query
 * values, header values, bodies a target sent, error texts). Only values can hold the key, so only
 * values are rewritten: a short key such as `test` or `100` must not turn `<testsuites>` into
 * `<***suites>` or `100%` into `***%`.
 *
 * A key of MIN_SAFE_KEY_LENGTH characters or more is unmistakable: any of its forms is replaced
 * wherever it appears in a value (raw, URL-encoded, form-encoded, JSON-, XML- and HTML-escaped,
 * base64, and cut short by an excerpt's `…`). A shorter key could be an ordinary word or number, so
 * it is replaced only where it stands as a whole token (`appkey=test&`, `"test"`, `key test.`), in
 * the values a key can be in; callers warn about it (`keyWarning`).
 */

import { fromBase64, toBase64, utf8Length } from './base64.ts';

export const REDACTED = '***';

/** Shorter keys are redacted only as whole tokens (see the module comment). */
export const MIN_SAFE_KEY_LENGTH = 8;

/** Shortest key prefix redacted where an excerpt was cut (`abcd…`): shorter ones say nothing. */
const MIN_PREFIX = 4;

export interface Redactor {
  /** Some key is shorter than MIN_SAFE_KEY_LENGTH: it is only redacted as a whole token. */
  readonly weak: boolean;
  /**
   * Text a target or the network produced (a body, a header value, an error message): every form
   * of a long key anywhere, a short key as a whole token, and `Basic` credentials that hold a key.
   */
  text(value: string): string;
  /**
   * Text this toolkit composed around values that are already clean (a check's message, vitest's
   * printout of it): a long key anywhere; a short one is left alone, since here it would only
   * match our own words and numbers.
   */
  composed(value: string): string;
  /** A URL: query values, credentials and fragment as `text`; scheme, host and path as `composed`. */
  url(value: string): string;
  /**
   * A value something will still be judged on (a response header, a string in a response body):
   * a long key anywhere, a short one only when it is the whole value, so that `application/json`
   * stays a media type whatever the key.
   */
  exact(value: string): string;
  /** Header values as `text` (names are never touched). */
  headers(headers: Record<string, string>): Record<string, string>;
  /**
   * Every string value of a JSON-like value as `text` (or `exact`); object keys are names and
   * stay. Returns a copy.
   */
  deep<T>(value: T, mode?: 'text' | 'exact'): T;
  /**
   * False when no value read out of `raw` (its substrings, or the strings JSON.parse makes of it)
   * could hold a key: redacting them would change nothing, and can be skipped.
   */
  mayHold(raw: string): boolean;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function htmlForms(s: string): string[] {
  const base = s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    base.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
    base.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    base.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
  ];
}

/** Every way a key can be written in a value: URL, form, JSON, XML/HTML escaping, base64. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    new URLSearchParams([['k', secret]]).toString().slice(2),
    encodeURI(secret),
    JSON.stringify(secret).slice(1, -1),
    ...htmlForms(secret),
  ]);
  if (secret.length >= MIN_SAFE_KEY_LENGTH) {
    const b64 = toBase64(secret);
    forms.add(b64);
    // The part of the base64 text that does not depend on what follows the key.
    forms.add(b64.slice(0, Math.floor(utf8Length(secret) / 3) * 4));
  }
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** A warning for a key too short to be redacted everywhere, or undefined. */
export function keyWarning(key: string | undefined): string | undefined {
  if (!key || key.length >= MIN_SAFE_KEY_LENGTH) return undefined;
  return `DATAAPI_APPKEY is only ${key.length} character${key.length === 1 ? '' : 's'} long: too short to redact safely. It is hidden where it stands alone (query values, headers, body values), but text that merely contains it is left as it is. Use a real key (${MIN_SAFE_KEY_LENGTH}+ characters).`;
}

/** Characters that make a run of text one token with the key around it. */
const TOKEN = 'A-Za-z0-9_\\-%+';

/** What a redactor matches, built once from its keys. */
interface Patterns {
  keys: string[];
  /** Every form of a long key, anywhere (and cut short by an excerpt). */
  anywhere?: RegExp;
  /**
   * The first MIN_PREFIX characters of every form of a long key: each of `anywhere`'s
   * alternatives starts with one, so a value holding none needs no pass of the pattern.
   */
  heads: string[];
  /** Every form of a short key, as a whole token. */
  token?: RegExp;
  /** Every form of a short key (a value that is exactly one of them). */
  weakForms: Set<string>;
}

function patternsOf(secrets: readonly (string | undefined)[]): Patterns {
  const keys = [...new Set(secrets.filter((s): s is string => !!s))];
  const strong = keys.filter((k) => k.length >= MIN_SAFE_KEY_LENGTH);
  const weak = keys.filter((k) => k.length < MIN_SAFE_KEY_LENGTH);
  const weakForms = new Set(weak.flatMap(secretForms));
  const alternatives = [...weakForms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join('|');
  return {
    keys,
    ...(strong.length ? { anywhere: strongPattern(strong) } : {}),
    heads: [...new Set(strong.flatMap(secretForms).map((f) => f.slice(0, MIN_PREFIX)))],
    ...(weak.length
      ? { token: new RegExp(`(?<![${TOKEN}])(?:${alternatives})(?![${TOKEN}])`, 'g') }
      : {}),
    weakForms,
  };
}

/** Whether `value` may hold a form of a long key (see Patterns.heads). */
function mayHoldStrong(p: Patterns, value: string): boolean {
  for (const head of p.heads) if (value.includes(head)) return true;
  return false;
}

function composedWith(p: Patterns, value: string): string {
  return p.anywhere && mayHoldStrong(p, value)
    ? value.replace(p.anywhere, (m) => (m.endsWith('…') ? `${REDACTED}…` : REDACTED))
    : value;
}

/** `Basic` credentials whose user or password is a key (or that hold a long key). */
function basicWith(p: Patterns, value: string): string {
  return value.replace(/\b(Basic\s+)([A-Za-z0-9+/]+={0,2})/gi, (m, scheme: string, b64: string) => {
    const decoded = fromBase64(b64);
    const parts = decoded.split(':');
    const hit = p.keys.some(
      (k) => parts.includes(k) || (k.length >= MIN_SAFE_KEY_LENGTH && decoded.includes(k)),
    );
    return hit ? `${scheme}${REDACTED}` : m;
  });
}

function textWith(p: Patterns, value: string): string {
  if (!p.keys.length) return value;
  let out = composedWith(p, value);
  if (p.token) out = out.replace(p.token, REDACTED);
  return /basic/i.test(out) ? basicWith(p, out) : out;
}

function exactWith(p: Patterns, value: string): string {
  if (!p.keys.length) return value;
  if (p.weakForms.has(value)) return REDACTED;
  const out = composedWith(p, value);
  return /basic/i.test(out) ? basicWith(p, out) : out;
}

/** Query values, credentials and fragment of a URL as values; scheme, host and path as names. */
function urlWith(p: Patterns, value: string): string {
  if (!p.keys.length) return value;
  const text = (v: string) => textWith(p, v);
  const composed = (v: string) => composedWith(p, v);
  const hash = value.indexOf('#');
  const beforeHash = hash < 0 ? value : value.slice(0, hash);
  const q = beforeHash.indexOf('?');
  let head = q < 0 ? beforeHash : beforeHash.slice(0, q);
  // Credentials (`https://user:key@host`) are values.
  head = head.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@/i,
    (_m, scheme: string, cred: string) =>
      `${scheme}${cred
        .split(':')
        .map((c) => (text(c) !== c || p.keys.includes(c) ? REDACTED : c))
        .join(':')}@`,
  );
  let out = composed(head);
  if (q >= 0)
    out += `?${beforeHash
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        return eq < 0
          ? composed(pair)
          : `${composed(pair.slice(0, eq))}=${text(pair.slice(eq + 1))}`;
      })
      .join('&')}`;
  if (hash >= 0) out += `#${text(value.slice(hash + 1))}`;
  return out;
}

/** Every string value of a JSON-like value cleaned by `clean`; object keys are names and stay. */
function deepWith(value: unknown, clean: (v: string) => string): unknown {
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((v) => deepWith(v, clean));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(value)) out[k] = deepWith(inner, clean);
    return out;
  }
  return value;
}

export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const p = patternsOf(secrets);
  const text = (value: string) => textWith(p, value);
  const exact = (value: string) => exactWith(p, value);
  return {
    weak: p.weakForms.size > 0,
    text,
    composed: (value) => composedWith(p, value),
    exact,
    url: (value) => urlWith(p, value),
    headers: (h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, text(v)])),
    deep: <T>(value: T, mode: 'text' | 'exact' = 'text'): T =>
      p.keys.length ? (deepWith(value, mode === 'exact' ? exact : text) as T) : value,
    mayHold: (raw) => mayHoldWith(p, raw),
  };
}

function mayHoldWith(p: Patterns, raw: string): boolean {
  if (!p.keys.length) return false;
  // An escape could spell a key out of other characters (`\u0061`): only a full pass can tell.
  if (raw.includes('\\') || /basic/i.test(raw)) return true;
  if (p.anywhere && mayHoldStrong(p, raw)) {
    p.anywhere.lastIndex = 0;
    const hit = p.anywhere.test(raw);
    p.anywhere.lastIndex = 0;
    if (hit) return true;
  }
  for (const form of p.weakForms) if (raw.includes(form)) return true;
  return false;
}

/** Long keys: every form anywhere, and a form cut short by an excerpt (`appkey=abcd…`). */
function strongPattern(keys: string[]): RegExp {
  const forms = [...new Set(keys.flatMap(secretForms))];
  const prefixes = new Set<string>();
  for (const f of forms)
    for (let k = f.length - 1; k >= MIN_PREFIX; k--) prefixes.add(`${f.slice(0, k)}…`);
  const all = [...forms, ...prefixes].sort((a, b) => b.length - a.length);
  return new RegExp(all.map(escapeRe).join('|'), 'g');
}

/** Redactors by key set: building the long-key pattern costs more than using it. */
const cache = new Map<string, Redactor>();

/** The redactor of a key set, built once (a few recent key sets are kept). */
export function redactorFor(secrets: readonly (string | undefined)[]): Redactor {
  const id = JSON.stringify(secrets.filter(Boolean));
  let r = cache.get(id);
  if (!r) {
    r = createRedactor(secrets);
    if (cache.size >= 8) cache.delete(cache.keys().next().value as string);
    cache.set(id, r);
  }
  return r;
}

/** Shorthand: `text` redaction (see Redactor.text). */
export function redact(value: string, secrets: readonly (string | undefined)[]): string {
  return redactorFor(secrets).text(value);
}

/** Shorthand: `deep` redaction (string values only, never keys). */
export function redactDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  return redactorFor(secrets).deep(value);
}
