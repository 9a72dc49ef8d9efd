/**
 * Parameters of any description: coercion from text, `oneOf` alternatives that both fit once
 * coerced, header parameters, odd path parameter names, literal colons, optional bodies and
 * form bodies, parameter styles (non-exploded, delimited, deepObject, form objects, JSON content),
 * a required body whose schema has no `type`, JSON parts of a multipart form. Built from a small
 * inline OpenAPI 3.1 document (params-doc.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from 'dataapi/runtime/server';
import { doc } from './params-doc.ts';
import { serveDocument, type ServedFixture } from './serve-fixture.ts';

const echo: Handler = async ({ path, query, headers, body }) => ({
  path,
  query,
  trace: headers['x-trace'],
  body,
});
let served: ServedFixture;
let url: string;
beforeAll(async () => {
  served = await serveDocument(doc, {
    getWorkflow: echo,
    batch: echo,
    form: echo,
    styles: echo,
    upload: echo,
    patch: echo,
    prefixed: echo,
    account: echo,
  });
  url = served.url;
});
afterAll(() => served?.close());

const get = async (path: string, headers: Record<string, string> = { 'x-trace': 'abc' }) => {
  const res = await fetch(url + path, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('parameters', () => {
  it('a oneOf of integer and string takes both a number and a word; odd names map back', async () => {
    const numeric = await get('/w/123');
    expect(numeric.status).toBe(200);
    expect(String((numeric.body.path as Record<string, unknown>)['workflow-id'])).toBe('123');
    expect((await get('/w/main.yml')).body.path).toEqual({ 'workflow-id': 'main.yml' });
  });

  it('query values are coerced to their types, arrays from repeats; bad ones are 400', async () => {
    const ok = await get('/w/1?n=5&tags=a&tags=b&unknown=1');
    expect(ok.status).toBe(200);
    expect(ok.body.query).toMatchObject({ n: 5, tags: ['a', 'b'], unknown: '1' });
    expect((await get('/w/1?tags=a')).body.query).toMatchObject({ tags: ['a'] });
    expect((await get('/w/1?n=0')).status).toBe(400);
    expect((await get('/w/1?n=x')).status).toBe(400);
  });

  it('required header parameters are validated', async () => {
    expect((await get('/w/1', {})).status).toBe(400);
    expect((await get('/w/1', { 'x-trace': 'ab' })).status).toBe(400);
    expect((await get('/w/1', { 'x-trace': 'abcd' })).body.trace).toBe('abcd');
  });

  it('a literal colon in a path; an optional body may be absent but not wrong', async () => {
    expect((await fetch(`${url}/things:batch`, { method: 'POST' })).status).toBe(200);
    const bad = await fetch(`${url}/things:batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":"x"}',
    });
    expect(bad.status).toBe(400);
  });

  it('form bodies are parsed and coerced', async () => {
    const res = await fetch(`${url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'n=4&extra=y',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { body: unknown }).body).toEqual({ n: 4, extra: 'y' });
    const bad = await fetch(`${url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'n=four',
    });
    expect(bad.status).toBe(400);
  });
});

describe('parameter styles and bodies of any description', () => {
  const post = (path: string, init: RequestInit = {}) =>
    fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      ...init,
    });

  it('decodes each parameter by its style before validating it', async () => {
    const q = [
      'size_range=1,5',
      'pipes=a|b',
      'filter[x]=1&filter[y]=2',
      'x=3',
      `mdfilters=${encodeURIComponent('{"x":4,"tag":"a"}')}&mdfilters=${encodeURIComponent('{"x":5}')}`,
      `meta=${encodeURIComponent('{"x":6}')}`,
    ].join('&');
    const res = await post(`/styles/7,8?${q}`, {
      headers: { 'content-type': 'application/json', 'x-ids': '9,10' },
    });
    const body = (await res.json()) as Record<string, Record<string, unknown>>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.path).toEqual({ ids: [7, 8] });
    expect(body.query).toMatchObject({
      size_range: [1, 5],
      pipes: ['a', 'b'],
      filter: { x: 1, y: 2 },
      point: { x: 3 },
      mdfilters: [{ x: 4, tag: 'a' }, { x: 5 }],
      meta: { x: 6 },
    });
    expect(body.headers).toBeUndefined();
    // Values that do not decode to their schema are refused with the reason.
    expect((await post('/styles/7,x')).status).toBe(400);
    expect((await post('/styles/7?size_range=1,x')).status).toBe(400);
    expect((await post('/styles/7?filter[y]=2')).status).toBe(400);
    expect((await post(`/styles/7?meta=${encodeURIComponent('{"y":1}')}`)).status).toBe(400);
    const badItem = await post(`/styles/7?mdfilters=${encodeURIComponent('{"x":"4"}')}`);
    expect(badItem.status).toBe(400);
    expect(await badItem.text()).toContain('querystring/mdfilters/0/x must be integer');
  });

  it('label and matrix path values lose their prefix and are read by their style', async () => {
    const res = await fetch(`${url}/label/.1,2/;x=3;y=4/;name=ab`);
    const body = (await res.json()) as { path: unknown };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.path).toEqual({ ids: [1, 2], point: { x: 3, y: 4 }, name: 'ab' });
    expect((await fetch(`${url}/label/.1,x/;x=3/;name=ab`)).status).toBe(400);
  });

  it('a required readOnly property may be left out of a request (OpenAPI: required on responses only)', async () => {
    expect((await post('/accounts', { body: '{"name":"a"}' })).status).toBe(200);
    const bad = await post('/accounts', { body: '{"id":"1"}' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("required property 'name'");
  });

  it('a required body whose schema has no type is refused when missing', async () => {
    const missing = await fetch(`${url}/styles/7`, { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toMatch(/body/i);
    expect((await post('/styles/7', { body: '"text"' })).status).toBe(200);
    expect((await post('/styles/7', { body: 'null' })).status).toBe(200);
  });

  it('JSON under another media type (application/json-patch+json) is parsed and validated', async () => {
    const patch = (body: string) =>
      fetch(`${url}/patch`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json-patch+json' },
        body,
      });
    const ok = await patch('[{"op":"add","path":"/a","value":1}]');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { body: unknown }).body).toEqual([
      { op: 'add', path: '/a', value: 1 },
    ]);
    expect((await patch('[{"path":"/a"}]')).status).toBe(400);
    expect((await patch('[{')).status).toBe(400);
  });

  it('an object field of a multipart form is read as JSON (OpenAPI default for objects)', async () => {
    const form = (attributes: string) => {
      const f = new FormData();
      f.append('attributes', attributes);
      f.append('file', new Blob(['hello']), 'a.txt');
      return f;
    };
    const ok = await fetch(`${url}/upload`, { method: 'POST', body: form('{"x":1}') });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { body: unknown }).body).toEqual({ attributes: { x: 1 } });
    const bad = await fetch(`${url}/upload`, { method: 'POST', body: form('{"y":1}') });
    expect(bad.status).toBe(400);
    expect((await fetch(`${url}/upload`, { method: 'POST', body: form('x') })).status).toBe(400);
  });
});
