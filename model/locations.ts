/**
 * Where a parameter travels (path, query, header, cookie) and where a key does (those, a body
 * field, an Authorization scheme), as exhaustive visitors: a call site says what it does in each
 * place and the compiler names a place it forgot, instead of flattening the grouped parameters
 * and testing `.in` again (issue 47).
 */
import { PARAMETER_LOCATIONS } from './queries.ts';
import type { Auth, KeyTransport, Parameter, ParameterLocation, Parameters } from './types.ts';

/** One handler per location, each given that location's parameters. */
export type LocationVisitor<R> = {
  readonly [L in ParameterLocation]: (p: Parameter<L>) => R;
};

/** The handler of the parameter's location, applied to it. */
export function atLocation<R>(p: Parameter, visit: LocationVisitor<R>): R {
  return (visit[p.in] as (p: Parameter) => R)(p);
}

/** Every parameter through its location's handler, in the model's order (path, query, header, cookie). */
export function mapLocations<R>(parameters: Parameters, visit: LocationVisitor<R>): R[] {
  return PARAMETER_LOCATIONS.flatMap((where) =>
    (parameters[where] as Parameter[]).map((p) => (visit[where] as (p: Parameter) => R)(p)),
  );
}

/** Calls each parameter's location handler, in the model's order. */
export function forEachLocation(parameters: Parameters, visit: LocationVisitor<void>): void {
  mapLocations(parameters, visit);
}

/** The items of a flat list kept by location (a link's parameter values) that go to one location. */
export function locatedAt<T extends { in: ParameterLocation }, L extends ParameterLocation>(
  items: readonly T[],
  where: L,
): (T & { in: L })[] {
  return items.filter((i): i is T & { in: L } => i.in === where);
}

/** Whether two names name the same parameter there: header names ignore case (RFC 9110), others do not. */
export function sameParameterName(where: ParameterLocation, a: string, b: string): boolean {
  return where === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** A key telling parameters apart (`header:x-trace`, `query:q`): the location and the name as it matches. */
export function parameterKey(p: { in: ParameterLocation; name: string }): string {
  return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
}

/** One handler per key transport, each given that transport. */
export type TransportVisitor<R> = {
  readonly [W in KeyTransport['in']]: (t: Extract<KeyTransport, { in: W }>) => R;
};

/** The handler of the transport's kind, applied to it. */
export function onTransport<R>(t: KeyTransport, visit: TransportVisitor<R>): R {
  return (visit[t.in] as (t: KeyTransport) => R)(t);
}

/** The operation's transport of one kind (its first), if it takes the key that way. */
export function keyTransport<W extends KeyTransport['in']>(
  auth: Pick<Auth, 'transports'>,
  kind: W,
): Extract<KeyTransport, { in: W }> | undefined {
  return auth.transports.find((t): t is Extract<KeyTransport, { in: W }> => t.in === kind);
}

/**
 * Whether the key goes where this parameter does (same place and name): the credential fills
 * it, so no value of the parameter's own is sent (NYTimes' query `api-key` beside its scheme).
 */
export function carriesKey(
  auth: Pick<Auth, 'transports'>,
  p: { in: ParameterLocation; name: string },
): boolean {
  return auth.transports.some(
    (t) => 'name' in t && t.in === p.in && sameParameterName(p.in, t.name, p.name),
  );
}

/** Every transport of one kind the operation takes the key by (each query name, say). */
export function transportsOf<W extends KeyTransport['in']>(
  auth: Pick<Auth, 'transports'>,
  kind: W,
): Extract<KeyTransport, { in: W }>[] {
  return auth.transports.filter((t): t is Extract<KeyTransport, { in: W }> => t.in === kind);
}

/** The request header a key travels in (bearer and basic: Authorization), lower case; none elsewhere. */
export function headerOfTransport(t: KeyTransport): string | undefined {
  const none = () => undefined;
  return onTransport<string | undefined>(t, {
    header: (h) => h.name.toLowerCase(),
    bearer: () => 'authorization',
    basic: () => 'authorization',
    query: none,
    cookie: none,
    body: none,
  });
}

/** Whether a transport is an HTTP authentication scheme (bearer, basic), read from its prefix. */
export function isHttpScheme(t: KeyTransport): boolean {
  return headerOfTransport(t) === 'authorization' && !('name' in t);
}
