/**
 * A path key with a query part whose value is a template expression (go2rtc:
 * `/api/streams?src={src}`, `src` declared `in: path`). OpenAPI allows no query in a path key; the
 * normaliser read `{src}` as fixed text, so the server demanded `?src={src}` word for word and the
 * declared `src` was dropped as unused. Decided: the key is served at its path with a warning at
 * its pointer (path-key-query), and a `{name}` value is the query parameter of that pair: a
 * parameter of that name declared elsewhere moves to the query (its schema kept), an undeclared
 * one is a required string. Text values stay fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { modelOf, send, serve, type Served } from './helpers.ts';

let served: Served;
beforeAll(async () => {
  served = await serve('path-key-query-template.yaml');
});
afterAll(() => served?.close());

describe('a path key whose query names a parameter', () => {
  it('reads {src} as the query parameter src, with a warning at the key', async () => {
    const model = await modelOf('path-key-query-template.yaml');
    const stream = model.operations.find((o) => o.id === 'getStream')!;
    expect(stream.path).toBe('/api/streams');
    expect(stream.parameters.path).toEqual([]);
    expect(stream.parameters.query).toMatchObject([
      { name: 'src', in: 'query', required: true, schema: { pattern: '^[a-z0-9]+$' } },
    ]);
    expect(stream.parameters.query[0]!.fixed).toBeUndefined();
    const frame = model.operations.find((o) => o.id === 'getFrame')!;
    expect(frame.parameters.query.map((p) => [p.name, p.fixed])).toEqual([
      ['kind', 'jpeg'],
      ['src', undefined],
    ]);
    const warnings = model.findings.filter((f) => f.code === 'path-key-query');
    expect(warnings.map((f) => [f.severity, f.pointer, f.message])).toEqual([
      [
        'warning',
        '/paths/~1api~1frame.jpeg?src={name}&kind=jpeg',
        'path key has a query (src={name}&kind=jpeg): served at /api/frame.jpeg with fixed query parameters; {name} is read as the query parameter src',
      ],
      [
        'warning',
        '/paths/~1api~1streams?src={src}',
        'path key has a query (src={src}): served at /api/streams, {src} is read as the query parameter src',
      ],
    ]);
  });

  it('the mock takes any src its schema takes, and refuses the others', async () => {
    expect((await send(`${served.url}/api/streams?src=camera1`, 'GET')).status).toBe(200);
    expect((await send(`${served.url}/api/streams?src=BAD`, 'GET')).status).toBe(400);
    expect((await send(`${served.url}/api/streams`, 'GET')).status).toBe(400);
    expect((await send(`${served.url}/api/frame.jpeg?src=x&kind=jpeg`, 'GET')).status).toBe(200);
    expect((await send(`${served.url}/api/frame.jpeg?src=x&kind=png`, 'GET')).status).toBe(400);
  });

  it('agreement by construction: read back equal', async () => {
    const a = await agreementOf(served.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
