/**
 * The location visitor (model/locations.ts): each parameter reaches its own location's handler,
 * in the model's order; header names match without case; transports are visited by their kind.
 */
import { describe, expect, it } from 'vitest';
import {
  atLocation,
  carriesKey,
  forEachLocation,
  headerOfTransport,
  isHttpScheme,
  keyTransport,
  locatedAt,
  mapLocations,
  noParameters,
  onTransport,
  parameterKey,
  sameParameterName,
  transportsOf,
  type KeyTransport,
  type Parameter,
  type ParameterLocation,
  type Parameters,
} from '../../model/index.ts';

const param = <L extends ParameterLocation>(where: L, name: string): Parameter<L> => ({
  name,
  in: where,
  required: false,
  schema: {},
  style: 'simple',
  explode: false,
  deprecated: false,
  identifier: name,
});

const parameters: Parameters = {
  ...noParameters(),
  cookie: [param('cookie', 'session')],
  header: [param('header', 'X-Trace'), param('header', 'Accept')],
  query: [param('query', 'q')],
  path: [param('path', 'id')],
};

const tag = {
  path: (p: Parameter<'path'>) => `path ${p.name}`,
  query: (p: Parameter<'query'>) => `query ${p.name}`,
  header: (p: Parameter<'header'>) => `header ${p.name}`,
  cookie: (p: Parameter<'cookie'>) => `cookie ${p.name}`,
};

describe('the location visitor', () => {
  it('hands every parameter to its own location, path, query, header then cookie', () => {
    expect(mapLocations(parameters, tag)).toEqual([
      'path id',
      'query q',
      'header X-Trace',
      'header Accept',
      'cookie session',
    ]);
    const seen: string[] = [];
    forEachLocation(parameters, {
      path: (p) => seen.push(p.in),
      query: (p) => seen.push(p.in),
      header: (p) => seen.push(p.in),
      cookie: (p) => seen.push(p.in),
    });
    expect(seen).toEqual(['path', 'query', 'header', 'header', 'cookie']);
  });

  it('keeps the items of a flat list that go to one location', () => {
    const values = [
      { in: 'query' as const, name: 'q', value: 1 },
      { in: 'path' as const, name: 'id', value: 2 },
    ];
    expect(locatedAt(values, 'path')).toEqual([{ in: 'path', name: 'id', value: 2 }]);
    expect(locatedAt(values, 'cookie')).toEqual([]);
  });

  it('dispatches one parameter by its location', () => {
    expect(atLocation(param('cookie', 'c'), tag)).toBe('cookie c');
    expect(atLocation(param('path', 'p'), tag)).toBe('path p');
  });

  it('matches header names without case, the others exactly', () => {
    expect(sameParameterName('header', 'X-Trace', 'x-trace')).toBe(true);
    expect(sameParameterName('query', 'Q', 'q')).toBe(false);
    expect(sameParameterName('cookie', 'Session', 'session')).toBe(false);
    expect(parameterKey(param('header', 'X-Trace'))).toBe('header:x-trace');
    expect(parameterKey(param('cookie', 'Session'))).toBe('cookie:Session');
  });
});

describe('the key transports', () => {
  const transports: KeyTransport[] = [
    { in: 'header', name: 'X-Key', scheme: 'h' },
    { in: 'basic', scheme: 'b' },
    { in: 'body', name: 'appkey' },
    { in: 'cookie', name: 'sid', scheme: 'c' },
  ];
  const auth = { transports };

  it('visits each by its kind', () => {
    const label = (t: KeyTransport) =>
      onTransport(t, {
        query: (q) => `?${q.name}`,
        header: (h) => `${h.name}:`,
        cookie: (c) => `cookie ${c.name}`,
        body: (b) => `body.${b.name}`,
        bearer: () => 'Bearer',
        basic: () => 'Basic',
      });
    expect(transports.map(label)).toEqual(['X-Key:', 'Basic', 'body.appkey', 'cookie sid']);
  });

  it('finds the transport of one kind', () => {
    expect(keyTransport(auth, 'body')?.name).toBe('appkey');
    expect(keyTransport(auth, 'basic')).toEqual({ in: 'basic', scheme: 'b' });
    expect(keyTransport(auth, 'query')).toBeUndefined();
  });

  it('says which parameters the key fills: same place, same name (a header in any case)', () => {
    expect(carriesKey(auth, param('header', 'x-key'))).toBe(true);
    expect(carriesKey(auth, param('query', 'X-Key'))).toBe(false);
    expect(carriesKey(auth, param('cookie', 'sid'))).toBe(true);
    expect(carriesKey(auth, param('cookie', 'SID'))).toBe(false);
  });

  it('lists every transport of a kind, and the header each travels in', () => {
    const two = { transports: [...transports, { in: 'query', name: 'k2', scheme: 'q' } as const] };
    expect(transportsOf(two, 'query').map((t) => t.name)).toEqual(['k2']);
    expect(transportsOf(two, 'bearer')).toEqual([]);
    expect(transports.map(headerOfTransport)).toEqual([
      'x-key',
      'authorization',
      undefined,
      undefined,
    ]);
    expect(transports.map(isHttpScheme)).toEqual([false, true, false, false]);
    const named = { in: 'header', name: 'Authorization', scheme: 'a' } as const;
    expect([headerOfTransport(named), isHttpScheme(named)]).toEqual(['authorization', false]);
  });
});
