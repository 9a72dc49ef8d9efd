/**
 * The one redaction module: a long key is removed in every form anywhere in a value; a short key
 * only where it stands alone in a value; names and structure (URL paths, JSON keys, words of our
 * own) are never touched.
 */
import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  keyWarning,
  MIN_SAFE_KEY_LENGTH,
  REDACTED,
} from '../../runtime/shared/redact.ts';
import { fromBase64, toBase64 } from '../../runtime/shared/base64.ts';
import { basicHeader, readBasic } from '../../runtime/shared/credentials.ts';

const LONG = "s3cr3t key/+'(x)&é";

describe('a long key', () => {
  const r = createRedactor([LONG]);
  it('is removed in every encoding it can take in a value', () => {
    const forms = [
      LONG,
      encodeURIComponent(LONG),
      new URLSearchParams({ k: LONG }).toString().slice(2),
      encodeURI(LONG),
      JSON.stringify(LONG).slice(1, -1),
      LONG.replace(/&/g, '&amp;').replace(/'/g, '&#39;'),
      Buffer.from(LONG).toString('base64'),
    ];
    for (const f of forms) expect(r.text(`before ${f} after`), f).toBe(`before ${REDACTED} after`);
  });

  it('is removed when an excerpt cut it short', () => {
    expect(r.text(`{"appkey":"${LONG.slice(0, 6)}…`)).toBe(`{"appkey":"${REDACTED}…`);
    expect(r.composed(`x ${LONG.slice(0, 6)}…`)).toBe(`x ${REDACTED}…`);
  });

  it('is removed from basic credentials that carry it', () => {
    const basic = `Basic ${Buffer.from(`user:${LONG}`).toString('base64')}`;
    expect(r.text(`authorization: ${basic}`)).toBe(`authorization: Basic ${REDACTED}`);
  });

  it('is removed from a URL anywhere, the URL otherwise kept', () => {
    const url = `https://h.example/x/${encodeURIComponent(LONG)}?appkey=${encodeURIComponent(LONG)}&city=Beijing`;
    expect(r.url(url)).toBe(`https://h.example/x/${REDACTED}?appkey=${REDACTED}&city=Beijing`);
  });

  it('is not warned about', () => expect(keyWarning(LONG)).toBeUndefined());
});

describe('a short key (k, test, demo, 100)', () => {
  it('is removed where it is a value of its own: query value, JSON value, header, a token', () => {
    for (const key of ['k', 'test', 'demo', '100']) {
      const r = createRedactor([key]);
      expect(r.url(`http://h/Weather/AirQuality/demo?appkey=${key}&city=x`)).toBe(
        `http://h/Weather/AirQuality/demo?appkey=${REDACTED}&city=x`,
      );
      expect(r.deep({ appkey: key, nested: [{ [key]: `key ${key}.` }] })).toEqual({
        appkey: REDACTED,
        nested: [{ [key]: `key ${REDACTED}.` }],
      });
      expect(r.exact(key)).toBe(REDACTED);
      expect(r.text(`no key on /a?appkey=${key}`)).toBe(`no key on /a?appkey=${REDACTED}`);
      const basic = `Basic ${Buffer.from(`u:${key}`).toString('base64')}`;
      expect(r.text(basic)).toBe(`Basic ${REDACTED}`);
    }
  });

  it('never touches names, words or numbers that merely contain it', () => {
    const samples = {
      k: ['check', 'getAirQuality', '"checks": [', 'kind'],
      test: ['<testsuites name="x">', '<testcase/>', 'contest', 'tests="3"'],
      demo: ['/Weather/AirQuality/demo', 'getAirQualityDemo'],
      '100': ['(100%)', '1000', 'code 1001'],
    };
    for (const [key, texts] of Object.entries(samples)) {
      const r = createRedactor([key]);
      for (const t of texts) {
        expect(r.composed(t), `${key} in ${t}`).toBe(t);
        expect(r.url(t), `${key} in ${t}`).toBe(t);
      }
    }
    const r = createRedactor(['json']);
    // A value still judged (a media type) keeps its meaning.
    expect(r.exact('application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
    expect(createRedactor(['100']).text('(100%)')).toBe('(100%)');
  });

  it('is warned about', () => {
    expect(keyWarning('test')).toMatch(/too short to redact safely/);
    expect(keyWarning('x'.repeat(MIN_SAFE_KEY_LENGTH))).toBeUndefined();
    expect(keyWarning('')).toBeUndefined();
    expect(createRedactor(['demo']).weak).toBe(true);
  });
});

it('no key: nothing changes', () => {
  const r = createRedactor(['', undefined]);
  const v = { a: 'b' };
  expect(r.deep(v)).toBe(v);
  expect(r.text('abc')).toBe('abc');
});

describe('without Node (the packed client runs in browsers)', () => {
  it('redacts every form of a key, Basic credentials included, with no Buffer global', () => {
    const basic = `Basic ${Buffer.from(`user:${LONG}`).toString('base64')}`;
    const encoded = Buffer.from(LONG).toString('base64');
    const saved = globalThis.Buffer;
    // @ts-expect-error: a browser has no Buffer
    delete globalThis.Buffer;
    try {
      const r = createRedactor([LONG]);
      expect(r.text(`a ${encoded} b`)).toBe(`a ${REDACTED} b`);
      expect(r.text(basic)).toBe(`Basic ${REDACTED}`);
      expect(basicHeader(`user:${LONG}`)).toBe(basic);
      expect(readBasic(basic)).toBe(`user:${LONG}`);
    } finally {
      globalThis.Buffer = saved;
    }
  });

  it('reads base64 as leniently as Buffer does', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'user:pässwörd', '🔑 key', LONG]) {
      const b64 = Buffer.from(text).toString('base64');
      for (const form of [b64, b64.replace(/=+$/, ''), Buffer.from(text).toString('base64url')])
        expect(fromBase64(form), form).toBe(Buffer.from(form, 'base64').toString('utf8'));
      expect(toBase64(text)).toBe(b64);
    }
    for (const odd of ['QUJDRA=', 'QUJDRAx', 'Q', '////'])
      expect(fromBase64(odd), odd).toBe(Buffer.from(odd, 'base64').toString('utf8'));
  });
});

describe('mayHold: the scan that spares redacting a body that holds no key', () => {
  // Bodies as a target sends them: the key in each form, at any place, or not at all.
  const keys = [LONG, 'test', 'abcdefghij'];
  const forms = (k: string) => [
    k,
    encodeURIComponent(k),
    JSON.stringify(k).slice(1, -1),
    Buffer.from(k).toString('base64'),
    `Basic ${Buffer.from(`u:${k}`).toString('base64')}`,
    `\\u00${k.charCodeAt(0).toString(16)}${JSON.stringify(k.slice(1)).slice(1, -1)}`,
  ];
  let seed = 11;
  const pick = <T>(list: T[]): T => {
    seed = (seed * 16807) % 2147483647;
    return list[seed % list.length]!;
  };
  it('is false only where redacting would change nothing', () => {
    let skipped = 0;
    for (let i = 0; i < 600; i++) {
      const key = pick(keys);
      const r = createRedactor([key]);
      const value = pick(['plain', 'te', 'test', pick(forms(key)), `x ${pick(forms(key))} y`]);
      const raw = JSON.stringify({ a: [value, { b: pick(['no key here', value]) }] });
      if (r.mayHold(raw)) continue;
      skipped++;
      expect(r.deep(JSON.parse(raw), 'exact'), raw).toEqual(JSON.parse(raw));
      expect(r.deep(JSON.parse(raw), 'text'), raw).toEqual(JSON.parse(raw));
      expect(r.composed(raw), raw).toBe(raw);
    }
    // The scan must spare some bodies, or it is worth nothing.
    expect(skipped).toBeGreaterThan(50);
  });

  it('is true for a key spelled with JSON escapes, which only parsing reveals', () => {
    const r = createRedactor([LONG]);
    const raw = JSON.stringify({ k: LONG }).replace('s3', '\\u0073\\u0033');
    expect(r.mayHold(raw)).toBe(true);
    expect(JSON.stringify(r.deep(JSON.parse(raw), 'exact'))).not.toContain('s3cr3t');
  });
});
