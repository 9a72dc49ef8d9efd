/**
 * Cookie parameters have a slot of their own in the suite's request record (issue 47): built
 * there, filled there by links, named `cookie.<name>` in coverage and negative cases, and written
 * on the wire with the cookie key as one Cookie header, as before.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkGivenData, useGivenData } from '../../contract-tests/given-data.ts';
import { followUp, type LinkSource } from '../../contract-tests/links.ts';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { requestOfSaved, savedRequest, validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from '../generator/helpers.ts';

const FIXTURE = path.join(FIXTURES, 'generality/cookie-slot.yaml');
const model = normalise(await loadSpec(FIXTURE));
const op = model.operations[0]!;

describe('the cookie slot', () => {
  it('holds cookie parameters, apart from the headers', () => {
    const [spec] = validRequests(model, op);
    expect(spec).toMatchObject({
      path: { cartId: 'c1' },
      query: { lang: 'en' },
      header: { 'X-Trace': 't1' },
      cookie: { theme: 'dark' },
    });
    expect(spec!.header).not.toHaveProperty('theme');
  });

  it('goes on the wire as one Cookie header, the cookie key last', () => {
    const [spec] = validRequests(model, op);
    const req = serialise(op, spec!, { path: op.path, key: 'key', appkey: 'k 1', purpose: 't' });
    expect(req.pathAndQuery).toBe('/carts/c1?lang=en');
    expect(req.headers).toEqual({ 'X-Trace': 't1', cookie: 'theme=dark; sid=k%201' });
    // Coverage reads where each value went: the cookie as a cookie.
    expect(req.parameters).toEqual(['cookie.theme', 'header.X-Trace', 'path.cartId', 'query.lang']);
  });

  it('names cookie parameters as cookies in negative cases', () => {
    const cases = negativeCases(model, op).filter((c) => c.label.startsWith('cookie theme'));
    expect(cases.map((c) => [c.label, c.target])).toEqual([
      ['cookie theme missing (required)', 'cookie.theme'],
      ['cookie theme="dataapi-not-in-enum" (not one of dark, light)', 'cookie.theme'],
    ]);
    const [spec] = validRequests(model, op);
    const missing = cases[0]!.apply(spec!);
    expect(missing.cookie).toEqual({});
    expect(
      serialise(op, missing, { path: op.path, key: 'key', appkey: 'k', purpose: 't' }).headers,
    ).toMatchObject({ cookie: 'sid=k' });
  });

  it('takes a link value for a cookie', () => {
    const [spec] = validRequests(model, op);
    const link = op.success!.links!.find((l) => l.name === 'Again')!;
    const src = {
      spec: spec!,
      method: 'get',
      url: 'http://x/carts/c1?lang=en',
      exchange: { record: { status: 200 }, headers: {}, json: { id: 'c2' } },
    } as unknown as LinkSource;
    const { spec: next, missing } = followUp(link, src, spec!);
    expect(missing).toEqual([]);
    expect(next.path).toEqual({ cartId: 'c2' });
    expect(next.cookie).toEqual({ theme: 'light' });
    expect(next.header).toEqual({ 'X-Trace': 't1' });
  });

  it('is left out of saved requests when empty, and read back from files written before it', () => {
    const [spec] = validRequests(model, op);
    expect(savedRequest({ ...spec!, cookie: {} })).not.toHaveProperty('cookie');
    expect(savedRequest(spec!)).toEqual(spec);
    // A replay file of before the slot: the cookie among the headers.
    const { cookie: _cookie, ...old } = spec!;
    void _cookie;
    const before = { ...old, header: { 'X-Trace': 't1', theme: 'dark' } };
    expect(requestOfSaved(op, before)).toEqual(spec);
  });

  it('takes test data for a cookie into the slot, and checks it against the cookie parameter', async () => {
    const own = normalise(await loadSpec(FIXTURE)); // requests are built once per model
    const data = { getCart: { cookie: { theme: 'light' }, header: { 'X-Trace': 't2' } } };
    expect(checkGivenData(own, data)).toEqual([]);
    expect(checkGivenData(own, { getCart: { cookie: { theme: 'pink' } } })[0]).toMatch(
      /^getCart\.cookie\.theme: /,
    );
    useGivenData(own, data);
    const ownOp = own.operations[0]!;
    const [spec] = validRequests(own, ownOp);
    expect(spec).toMatchObject({ header: { 'X-Trace': 't2' }, cookie: { theme: 'light' } });
    const req = serialise(ownOp, spec!, {
      path: ownOp.path,
      key: 'key',
      appkey: 'k',
      purpose: 't',
    });
    expect(req.headers).toEqual({ 'X-Trace': 't2', cookie: 'theme=light; sid=k' });
  });
});
