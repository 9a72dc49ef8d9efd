/**
 * What the judging thread builds for every exchange, field by field: the record reports write as
 * JSON keeps its fields in their order (they are set one by one, not spread, for speed), the
 * envelope reading too, and the memos of parsed and redacted request URLs give each exchange its
 * own parameters and a URL without the key.
 */
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { excerpt, readEnvelope, redactorFor } from '../../runtime/shared/index.ts';
import { judgedExchange, judgeObserved } from '../../contract-tests/proxy/judge.ts';
import type { Observed } from '../../contract-tests/proxy/observed.ts';

const KEY = 'judge-fields-secret-key';
const redactor = redactorFor([KEY]);
const airQuality = model.operations.find((o) => o.id === 'getAirQuality')!;
const example = airQuality.responses.find((r) => r.status === '200')!.examples[0]!.value;

function observed(pathAndQuery: string, extra: Partial<Observed> = {}): Observed {
  const body = Buffer.from(JSON.stringify(example));
  return {
    startedAt: '2026-11-29T00:00:00.000Z',
    durationMs: 3,
    method: 'GET',
    origin: 'http://upstream.test',
    pathAndQuery,
    requestHeaders: [['host', 'upstream.test']],
    requestBody: Buffer.alloc(0),
    requestSize: 0,
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json; charset=utf-8']],
    responseBody: body,
    responseSize: body.length,
    ...extra,
  };
}

const judged = (o: Observed) => judgedExchange(judgeObserved(model, o, redactor));

describe('a judged exchange', () => {
  it('keeps its record fields, and the reply its own, in their order', () => {
    const j = judged(observed(`/Weather/AirQuality?city=Beijing&appkey=${KEY}`));
    expect(j.findings).toEqual([]);
    expect(Object.keys(j)).toEqual(['findings', 'judged', 'variant', 'operation', 'record']);
    expect(Object.keys(JSON.parse(JSON.stringify(j.record)))).toEqual([
      'request',
      'durationMs',
      'waitedMs',
      'retries',
      'parameters',
      'status',
      'contentType',
      'excerpt',
      'businessCode',
    ]);
    const failed = judged(
      observed(`/Weather/AirQuality?city=Beijing&appkey=${KEY}`, {
        status: undefined,
        error: `ECONNRESET ${KEY}`,
        gatewayStatus: 502,
        responseHeaders: [],
        responseBody: Buffer.alloc(0),
        responseSize: 0,
      }),
    );
    expect(Object.keys(JSON.parse(JSON.stringify(failed.record)))).toEqual([
      'request',
      'durationMs',
      'waitedMs',
      'retries',
      'parameters',
      'error',
    ]);
    expect(failed.record!.error).toBe('ECONNRESET ***');
  });

  it('holds its excerpt as a plain value, no getter holding on to the whole body', () => {
    // A getter made per record kept each judged body (its text and parsed value) alive through
    // the judging thread's young-generation collections: copied, promoted, collected only by
    // full collections, most of a large answer's judging cost (issue 49's soak run).
    const record = judged(observed(`/Weather/AirQuality?city=Beijing&appkey=${KEY}`)).record!;
    for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(record)))
      expect({ key, getter: d.get !== undefined, setter: d.set !== undefined }).toEqual({
        key,
        getter: false,
        setter: false,
      });
    expect(Object.getOwnPropertyDescriptor(record, 'excerpt')?.value).toBe(excerpt(example, 200));
  });

  it('writes its excerpt only for a record that goes on, or a finding that shows it', () => {
    // Most judged records are dropped (record-sample.ts): their excerpt is never written.
    const url = `/Weather/AirQuality?city=Beijing&appkey=${KEY}`;
    const dropped = judgeObserved(model, observed(url), redactor);
    expect(judgedExchange(dropped, () => false).record).toBeUndefined();
    expect(dropped.probe!.exchange.record.excerpt).toBeUndefined();
    const kept = judgeObserved(model, observed(url), redactor);
    expect(judgedExchange(kept, () => true).record!.excerpt).toBe(excerpt(example, 200));
    // A failing check's finding carries the excerpt, redacted, though its record is dropped.
    const body = { ...(example as object), DataStatus: { StatusCode: 999, leaked: KEY } };
    const text = JSON.stringify(body);
    const failing = judgeObserved(
      model,
      observed(url, { responseBody: Buffer.from(text), responseSize: text.length }),
      redactor,
    );
    expect(judgedExchange(failing, () => false).record).toBeUndefined();
    const shown = failing.findings.map((f) => f.finding.evidence?.excerpt);
    expect(shown.length).toBeGreaterThan(0);
    for (const e of shown) {
      expect(e).toContain('999');
      expect(e).not.toContain(KEY);
    }
  });

  it('gets its own parameters and a redacted URL from the memos of recent URLs', () => {
    const urls = [
      `/Weather/AirQuality?city=Beijing&appkey=${KEY}`,
      `/Weather/AirQuality?city=Beijing&lang=zh&appkey=${KEY}`,
    ];
    for (let round = 0; round < 2; round++) {
      const [a, b] = urls.map((u) => judged(observed(u)).record!);
      expect(a!.parameters).toEqual(['query.city', 'query.appkey']);
      expect(b!.parameters).toEqual(['query.city', 'query.lang', 'query.appkey']);
      expect(a!.request.url).toBe(
        'http://upstream.test/Weather/AirQuality?city=Beijing&appkey=***',
      );
      expect(b!.request.url).toBe(
        'http://upstream.test/Weather/AirQuality?city=Beijing&lang=zh&appkey=***',
      );
      // A record the reports keep is theirs to change: no exchange shares one with another.
      a!.parameters.push('query.changed');
    }
  });
});

describe('an envelope reading', () => {
  it('has its fields in their order, the optional ones only when present', () => {
    expect(Object.keys(readEnvelope(airQuality, example))).toEqual([
      'status',
      'payload',
      'code',
      'description',
      'totalCount',
      'foreignKeys',
      'wellFormed',
    ]);
    expect(readEnvelope(airQuality, { Data: [] })).toEqual({
      payload: [],
      foreignKeys: [],
      wellFormed: false,
    });
  });
});

describe("the redactor's quick pass (values with no start of a key form are left alone)", () => {
  it('still finds a long key cut to its first four characters, in any of its forms', () => {
    const b64 = Buffer.from(KEY).toString('base64');
    expect(redactor.text(`appkey=${KEY.slice(0, 4)}…`)).toBe('appkey=***…');
    expect(redactor.composed(`token ${b64.slice(0, 4)}…`)).toBe('token ***…');
    expect(redactor.exact(`x${KEY}y`)).toBe('x***y');
    expect(redactor.mayHold(`"${KEY.slice(0, 4)}…"`)).toBe(true);
    expect(redactor.mayHold(`"${KEY.slice(1)}"`)).toBe(false);
    expect(redactor.url(`http://h/p?q=${encodeURIComponent(KEY)}`)).toBe('http://h/p?q=***');
  });
});
