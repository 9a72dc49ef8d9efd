/**
 * apiKey security schemes whose header is no HTTP field name (rapidapi.com/dynamicdocs's
 * `ADVICEment API Key`): no client can send it (fetch and node:http throw), so every request the
 * suite made for the operation threw, and the mock, which wanted that header, refused every other.
 * Such a scheme is now ignored as such a header parameter is (`header-name-invalid`, located at the
 * scheme's name): an operation with no other scheme is open, one with another takes that one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { expectPassed, fixture, lineOf, ownSuite, send, serve, type Served } from './helpers.ts';

const FILE = fixture('security-header-name.yaml');
let served: Served;
beforeAll(async () => {
  served = await serve('security-header-name.yaml');
});
afterAll(() => served?.close());

describe('an apiKey scheme whose header name has spaces', () => {
  it('is ignored with a finding at its name', () => {
    const [compile, status] = ['compile', 'status'].map((id) =>
      served.model.operations.find((o) => o.id === id)!,
    );
    expect(compile!.auth).toEqual({ transports: [], requirements: [], required: false });
    expect(status!.auth.requirements).toEqual([
      [{ in: 'header', name: 'X-Api-Key', scheme: 'Usable' }],
    ]);
    expect(status!.auth.required).toBe(true);
    const found = served.model.findings.map(
      (f) => `${f.code} ${f.operation} ${f.pointer} ${f.line}`,
    );
    const at = (s: string) => `/components/securitySchemes/${s}/name`;
    expect(found).toEqual([
      `header-name-invalid compile ${at('Adv-Security-Token')} ${lineOf(FILE, 'name: ADVICEment')}`,
      `header-name-invalid status ${at('Adv-Security-Token')} ${lineOf(FILE, 'name: ADVICEment')}`,
      `header-name-invalid compile ${at('X-RapidAPI-Key')} ${lineOf(FILE, 'name: RapidAPI.com')}`,
    ]);
  });

  it('the mock takes what a client can send', async () => {
    const compiled = await send(`${served.url}/templates/abc/compile`, 'POST', { name: 'x' });
    expect(compiled.status, compiled.text).toBe(200);
    expect((await send(`${served.url}/status`, 'GET')).status).toBe(401);
    const keyed = await send(`${served.url}/status`, 'GET', undefined, {
      'x-api-key': 'corpus-key',
    });
    expect(keyed.status, keyed.text).toBe(200);
  });

  it('agreement by construction: nothing throws, every value read back', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });

  it('passes the suite against its own mock, with the warning', async () => {
    const { run, tail } = await ownSuite(FILE, { fuzz: true });
    expectPassed(run, tail);
    expect(new Set(run.result?.warnings?.map((w) => w.code)), tail).toContain(
      'header-name-invalid',
    );
  });
});
