/**
 * Parameter values as the description serialises them (OpenAPI `style`/`explode`, `content`),
 * turned back into values before validation: Fastify parses `a=1&a=2` and nothing more, so
 * without this `size_range=1,5` (form, explode false) would be the one string "1,5" and a
 * deepObject `filter[kind]=x` an unknown key. Arrays in a non-exploded style are split on their
 * delimiter, deepObject and form objects are gathered, `content: application/json` parameters
 * and complex values no style can express (objects inside arrays) are read as JSON text.
 * Anything that does not decode stays as it came: validation then refuses it with its reason.
 * A required body that was not sent is refused here too, whatever its schema admits, and cookie
 * parameters are checked (cookies.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonSchema, Operation, Parameter, ServiceModel } from 'dataapi/model';
import {
  atLocation,
  deref,
  propertiesOf,
  queryNameClashes,
  transportsOf,
  type LocationVisitor,
} from 'dataapi/model';
import { HttpError } from './errors.ts';
import { hasBody } from './route-checks.ts';
import { appendHook, contextOf, onOperationRoute, type RouteContext } from './route-context.ts';
import { cookieCheck } from './cookies.ts';
import { toRoutePath } from './routes.ts';
import { branchSchema, carriesJson, complex, typesOf, untypedList } from './schema-types.ts';
import { enumReading } from './enum-text.ts';
import { validatorsFor } from './validation.ts';
import { formEncodingDecoders } from './form-encoding.ts';
import { shapeFormValue } from './form-shape.ts';
import { jsonOrText, textAsJson } from './text-json.ts';
import { bodylessLength } from './framing.ts';

type Bag = Record<string, unknown>;
/** The query's values as sent (still percent-encoded), by decoded name. */
type RawQuery = () => Map<string, string[]>;
type Decode = (bag: Bag, raw: RawQuery) => void;

/** `+` is a space in a query (form encoding); undefined for a malformed escape. */
function decodeQueryText(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The query string of a request URL read into raw values by name (once per request). */
function rawQueryOf(url: string): RawQuery {
  let map: Map<string, string[]> | undefined;
  return () => {
    if (map) return map;
    map = new Map();
    const at = url.indexOf('?');
    if (at < 0) return map;
    for (const pair of url.slice(at + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decodeQueryText(eq < 0 ? pair : pair.slice(0, eq));
      if (name === undefined) continue;
      map.set(name, [...(map.get(name) ?? []), eq < 0 ? '' : pair.slice(eq + 1)]);
    }
    return map;
  };
}

/**
 * Raw (still encoded) query values split on a delimiter written literally, then each piece
 * decoded: an encoded delimiter (`%2C`) is part of an item (RFC 3986), so `?s=%2C` is the one
 * item ",". A space can only travel encoded (`%20` or `+`), and a pipe often is (`%7C`): those
 * split in either form. Undefined when a piece does not decode.
 */
function splitRaw(values: string[], delimiter: string): string[] | undefined {
  const pattern = delimiter === ' ' ? /%20|\+| /i : delimiter === '|' ? /\||%7C/i : delimiter;
  const out: string[] = [];
  for (const v of values) {
    if (v === '') {
      out.push('');
      continue;
    }
    for (const piece of v.split(pattern)) {
      const text = decodeQueryText(piece);
      if (text === undefined) return undefined;
      out.push(text);
    }
  }
  return out;
}

/** JSON text to a value; anything else as it came. */
function json(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{"]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** `{..},{..}` (JSON values joined by commas) as the list of them; undefined if it is not. */
function jsonList(value: unknown): unknown[] | undefined {
  if (typeof value !== 'string' || !/^\s*[[{"]/.test(value)) return undefined;
  try {
    const list: unknown = JSON.parse(`[${value}]`);
    return Array.isArray(list) ? list : undefined;
  } catch {
    return undefined;
  }
}

const DELIMITERS: Record<string, string> = {
  form: ',',
  simple: ',',
  spaceDelimited: ' ',
  pipeDelimited: '|',
};

function splitList(value: unknown, delimiter: string): unknown {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) =>
    typeof v === 'string' && v !== '' ? v.split(delimiter) : [v],
  );
  return parts;
}

/** Whether an item schema admits the empty text (no schema: it does). */
function admitsEmptyText(model: ServiceModel, items: JsonSchema | undefined): boolean {
  const s = deref(model, items);
  if (typeof s !== 'object' || s === null) return true;
  const types = typesOf(model, s);
  if (types.size > 0 && !types.has('string')) return false;
  if (Array.isArray(s.enum)) return s.enum.includes('');
  if ('const' in s) return s.const === '';
  return !(typeof s.minLength === 'number' && s.minLength > 0);
}

/** `k1,v1,k2,v2` (form or simple, explode false) as an object. */
function pairs(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parts = value.split(',');
  if (parts.length % 2 !== 0) return value;
  const out: Bag = {};
  for (let i = 0; i < parts.length; i += 2) out[parts[i]!] = parts[i + 1];
  return out;
}

/** `k1=v1,k2=v2` (simple, explode true: a path or header object) as an object. */
function assignments(value: unknown): unknown {
  if (typeof value !== 'string' || !value.includes('=')) return value;
  const out: Bag = {};
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) return value;
    out[part.slice(0, at)] = part.slice(at + 1);
  }
  return out;
}

/**
 * A label (`.a.b`, `.a,b`) or matrix (`;id=a;id=b`, `;id=a,b`, `;x=1;y=2`) path value: the
 * prefix taken off, then read as a simple one (a list, `k,v` pairs or `k=v` assignments).
 */
function prefixed(p: Parameter, types: Set<string>): (v: unknown) => unknown {
  const list = types.has('array');
  const object = !list && types.has('object');
  return (v) => {
    if (typeof v !== 'string') return v;
    if (p.style === 'label') {
      if (!v.startsWith('.')) return v;
      const rest = v.slice(1);
      const parts = p.explode ? rest.split('.') : rest.split(',');
      if (list) return parts;
      if (object) return p.explode ? assignments(parts.join(',')) : pairs(parts.join(','));
      return rest;
    }
    if (!v.startsWith(';')) return v;
    const pieces = v.slice(1).split(';');
    if (object && p.explode) return assignments(pieces.join(','));
    const values = pieces.map((piece) =>
      piece.startsWith(`${p.name}=`) ? piece.slice(p.name.length + 1) : piece,
    );
    if (list) return p.explode ? values : values.join(',').split(',');
    if (object) return pairs(values.join(','));
    return values.join(';');
  };
}

/** What a location's styles allow a value to be written as (OpenAPI's style table). */
interface Writing {
  /** A label (`.a`) or matrix (`;id=a`) path value. */
  prefixed: boolean;
  /** The delimiter a list is written with; undefined when it repeats the name (exploded query). */
  delimiter: string | undefined;
  /** Its lists can be split on the values as sent (a query: `%2C` is part of an item). */
  raw: boolean;
  /** How an object is spread over the query's pairs, if it is. */
  spread?: 'deepObject' | 'exploded';
}

const WRITING: LocationVisitor<Writing> = {
  path: (p) => ({
    prefixed: p.style === 'label' || p.style === 'matrix',
    delimiter: DELIMITERS[p.style],
    raw: false,
  }),
  query: (p) => ({
    prefixed: false,
    delimiter: p.explode ? undefined : DELIMITERS[p.style],
    raw: true,
    ...(p.style === 'deepObject'
      ? { spread: 'deepObject' as const }
      : p.explode
        ? { spread: 'exploded' as const }
        : {}),
  }),
  header: (p) => ({ prefixed: false, delimiter: DELIMITERS[p.style], raw: false }),
  // Never decoded here (cookies.ts reads them); written as headers are.
  cookie: (p) => ({ prefixed: false, delimiter: DELIMITERS[p.style], raw: false }),
};

/** How one parameter's raw value becomes its value, or undefined when it arrives as it is. */
function decoderOf(
  model: ServiceModel,
  p: Parameter,
  key: string,
  clashing?: ReadonlyMap<string, unknown>,
  others?: ReadonlySet<string>,
): Decode | undefined {
  const set = (bag: Bag, f: (v: unknown) => unknown) => {
    if (Object.hasOwn(bag, key) && bag[key] !== undefined) bag[key] = f(bag[key]);
  };
  if (p.mediaType !== undefined)
    return /json/i.test(p.mediaType) ? (bag) => set(bag, jsonOrText) : undefined;
  const types = typesOf(model, p.schema);
  const writing = atLocation(p, WRITING);
  if (writing.prefixed) {
    const read = prefixed(p, types);
    return (bag) => set(bag, read);
  }
  if (types.has('array')) {
    // Items in a branch too (`anyOf: [array of objects, enum: ['']]`): each written as JSON.
    const items = branchSchema(model, p.schema, 'items');
    const itemsComplex = items !== undefined && complex(typesOf(model, items));
    const delimiter = writing.delimiter;
    // `content=` alone, exploded: null where the list admits it and no item is the empty text
    // (sinao.app's nullable list of objects was read as one empty item and refused).
    if (delimiter === undefined && types.has('null') && !admitsEmptyText(model, items)) {
      const rest = itemsComplex
        ? (v: unknown) => (Array.isArray(v) ? v : [v]).map(json)
        : undefined;
      return (bag) => set(bag, (v) => (v === '' ? null : rest ? rest(v) : v));
    }
    // One pair of a list without a `type` is still a list of one (Ajv wraps it only under `type`).
    if (delimiter === undefined && !itemsComplex && untypedList(model, p.schema))
      return (bag) => set(bag, (v) => (Array.isArray(v) ? v : [v]));
    if (delimiter === undefined && !itemsComplex) return undefined;
    // `include=`: null where the list admits it (a form has no null: gettyimages.com), else an
    // empty list, as OpenAPI's style table writes one, where no item is the empty text
    // (britbox.co.uk's enum items, default []); else one empty item, as before.
    const empty = types.has('null') ? null : admitsEmptyText(model, items) ? undefined : [];
    return (bag, raw) =>
      set(bag, (v) => {
        if (empty !== undefined && delimiter !== undefined && v === '') return empty;
        const sent = writing.raw && delimiter !== undefined ? raw().get(key) : undefined;
        const fromRaw = sent ? splitRaw(sent, delimiter!) : undefined;
        // Objects in a list written with a literal delimiter (a header, a path: the suite and
        // the client write each as JSON text, `{"k":1,"v":2},{"k":3}`) carry the delimiter
        // inside them: the whole text read as one JSON list first.
        const whole = itemsComplex && !fromRaw && delimiter !== undefined ? jsonList(v) : undefined;
        const list = whole ?? fromRaw ?? (delimiter === undefined ? v : splitList(v, delimiter));
        return itemsComplex ? (Array.isArray(list) ? list : [list]).map(json) : list;
      });
  }
  if (types.size === 0) {
    const read = enumReading(model, p.schema);
    return read && ((bag) => set(bag, read));
  }
  if (!types.has('object')) return undefined;
  // Objects and lists inside a query object have no form or deepObject writing (RFC 6570 has
  // none; OpenAPI defines one level): they travel as JSON text, as the suite and the generated
  // client write them, and are read back by their property's schema.
  const nested = new Set(
    [...propertiesOf(model, p.schema, { alternatives: true })]
      .filter(([, s]) => complex(typesOf(model, s)))
      .map(([n]) => n),
  );
  const inner = (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    for (const n of nested)
      if (Object.hasOwn(value, n)) (value as Bag)[n] = json((value as Bag)[n]);
    return value;
  };
  if (writing.spread === 'deepObject')
    return (bag) => {
      gatherDeep(bag, key);
      if (Object.hasOwn(bag, key)) bag[key] = inner(bag[key]);
    };
  if (writing.spread === 'exploded') {
    // A property another query parameter also writes is not this object's (model/query-objects.ts).
    // Those of its oneOf/anyOf options too (Intercom: `filter` is one of user_id, email, ...).
    const declared = [...propertiesOf(model, p.schema, { alternatives: true }).keys()];
    const names = declared.filter((n) => !clashing?.has(n));
    // A free-form object (`type: object`, no properties: Rocket.Chat's `selector`) takes every
    // name no other query parameter (or query credential) of the operation takes. One whose
    // properties all clash is not free-form: it takes nothing (ec2's Monitoring, whose only
    // property Enabled other objects write too, took every stray name and was refused).
    const free = declared.length === 0 && others !== undefined;
    return (bag) => {
      if (Object.hasOwn(bag, key)) return set(bag, json);
      const value: Bag = {};
      const own = free ? Object.keys(bag).filter((n) => !others.has(n)) : names;
      for (const n of own) if (Object.hasOwn(bag, n)) value[n] = bag[n];
      if (Object.keys(value).length > 0) bag[key] = inner(value);
    };
  }
  const read = p.explode ? assignments : pairs;
  return (bag) => set(bag, (v) => (typeof v === 'string' && /^\s*\{/.test(v) ? json(v) : read(v)));
}

/**
 * `name[a]=1&name[b][c]=2` as `name: {a: 1, b: {c: 2}}` (deepObject). The objects have no
 * prototype: a `__proto__` or `constructor` step is a plain key, never a way into Object.prototype.
 * With `consume`, the bracketed keys are taken out of the bag (a form body: its schema may not
 * allow them beside the object).
 */
function gatherDeep(bag: Bag, name: string, consume = false): void {
  const prefix = `${name}[`;
  let found: Bag | undefined;
  for (const key of Object.keys(bag)) {
    if (!key.startsWith(prefix)) continue;
    const path = key
      .slice(name.length)
      .match(/\[([^\]]*)\]/g)
      ?.map((t) => t.slice(1, -1));
    if (!path || path.length === 0) continue;
    found ??= Object.create(null) as Bag;
    let node = found;
    for (const step of path.slice(0, -1)) {
      const next = Object.hasOwn(node, step) ? node[step] : undefined;
      node = (node[step] =
        typeof next === 'object' && next !== null ? next : Object.create(null)) as Bag;
    }
    node[path[path.length - 1]!] = bag[key];
    if (consume) delete bag[key];
  }
  if (found) bag[name] = found;
  else if (Object.hasOwn(bag, name)) bag[name] = json(bag[name]);
}

/**
 * Validates a JSON parameter once parsed, without coercion (its route schema takes anything:
 * see validation.ts routeSchemas); a wrong one is a 400 worded as Fastify words the others.
 */
function strictly(model: ServiceModel, p: Parameter, key: string, where: string): Decode {
  const part = where === 'query' ? 'querystring' : where;
  return (bag) => {
    if (!Object.hasOwn(bag, key) || bag[key] === undefined) return;
    const strict = validatorsFor(model).body; // made on first use (validation.ts)
    // As a request reads it: a required readOnly property is not sent (stream-io-api.com's
    // `user_details.online` in a JSON query value).
    const validate = strict.compileFor(p.schema, 'request');
    if (validate(bag[key])) return;
    // A path parameter by its own name, not its route alias (users read the message).
    const shown = where === 'params' ? p.name : key;
    const text = strict.ajv.errorsText(validate.errors, { dataVar: `${part}/${shown}` });
    throw new HttpError(400, text, { outcome: 'invalid_parameters' });
  };
}

/** The decoding steps of an operation's parameters (none for scalars and exploded lists). */
/** The query names of an operation that are not parameter `p`'s: its other parameters, credentials. */
function queryNames(op: Operation, p: Parameter): Set<string> {
  const names = new Set(op.parameters.query.filter((q) => q !== p).map((q) => q.name));
  for (const t of transportsOf(op.auth, 'query')) names.add(t.name);
  return names;
}

function decodersOf(
  model: ServiceModel,
  op: Operation,
  pathAliases: Map<string, string>,
): { where: 'query' | 'params' | 'headers'; decode: Decode }[] {
  const aliasOf = new Map([...pathAliases].map(([alias, name]) => [name, alias]));
  const clashes = queryNameClashes(model, op);
  const steps: { where: 'query' | 'params' | 'headers'; decode: Decode }[] = [];
  // Where Fastify puts each location, and the key it files a value under (cookies: cookies.ts).
  const places = [
    ['params', op.parameters.path, (p: Parameter) => aliasOf.get(p.name) ?? p.name],
    ['query', op.parameters.query, (p: Parameter) => p.name],
    ['headers', op.parameters.header, (p: Parameter) => p.name.toLowerCase()],
  ] as const;
  for (const [where, params, keyOf] of places)
    for (const p of params) {
      if (p.fixed !== undefined) continue;
      const key = keyOf(p);
      const decode =
        where === 'query'
          ? decoderOf(model, p, key, clashes.get(p.name), queryNames(op, p))
          : decoderOf(model, p, key);
      if (decode) steps.push({ where, decode });
      if (carriesJson(model, p)) steps.push({ where, decode: strictly(model, p, key, where) });
    }
  return steps;
}

/**
 * Adds to every operation route registered after this call a preValidation hook (after the key
 * and rate-limit checks) that refuses a missing required body, whatever its schema admits
 * (`{}` admits anything, and Fastify hands an absent body to validation as null), and decodes
 * the parameters by their style.
 */
export function installParamDecoding(app: FastifyInstance, model: ServiceModel): void {
  // One hook per route context: a context with more than one route (Fastify's automatic HEAD
  // route did share its GET's; HEAD is now the GET's route itself, head.ts) builds its decoders once.
  const hooks = new WeakMap<RouteContext, PreValidation | undefined>();
  onOperationRoute(app, (routeOptions) => {
    const ctx = contextOf(routeOptions);
    if (!ctx) return;
    if (!hooks.has(ctx)) hooks.set(ctx, decodingHook(model, ctx.op));
    const hook = hooks.get(ctx);
    if (hook) appendHook(routeOptions, 'preValidation', hook);
  });
}

type PreValidation = (request: FastifyRequest) => Promise<void>;

/** The parts of a request the decoding reads and rewrites (a FastifyRequest has them). */
export interface RequestParts {
  url: string;
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

/**
 * The preValidation hook of an operation's route, or undefined when it has nothing to do: the
 * cookie check, the refusal of a missing required body, then `partsDecoding`.
 */
function decodingHook(model: ServiceModel, op: Operation): PreValidation | undefined {
  const bodyRequired =
    op.body?.required === true &&
    op.body.kind !== 'multipart' &&
    op.method !== 'get' &&
    op.method !== 'head';
  const cookies = cookieCheck(model, op);
  const decode = partsDecoding(model, op);
  if (!decode && !bodyRequired && !cookies) return undefined;
  return async (request) => {
    cookies?.(request);
    if (bodyRequired && !hasBody(request))
      throw new HttpError(400, `body is required (send ${op.body!.mediaType})`, {
        outcome: 'invalid_parameters',
      });
    decode?.(request);
  };
}

/**
 * The parameters decoded by their style and a form body's fields by their encoding, in place: a
 * pure step (no Fastify), so the agreement check (bench/corpus/agreement.ts) runs what the
 * server runs. Undefined when the operation has nothing to decode.
 */
export function partsDecoding(
  model: ServiceModel,
  op: Operation,
): ((parts: RequestParts) => void) | undefined {
  const steps = decodersOf(model, op, toRoutePath(op.path).params);
  // Object fields of a form body in the bracket form (`metadata[k]=v`, what deepObject encoding
  // and most form clients send) gathered into their objects; JSON text is still read as such.
  // List fields too, when they come in the bracket form (`items[0][id]=1`).
  const formFields = op.body?.kind === 'form' ? [...propertiesOf(model, op.body.schema)] : [];
  const formObjects = formFields
    .filter(([, sub]) => typesOf(model, sub).has('object'))
    .map(([name]) => name);
  const formLists = formFields
    .filter(([name, sub]) => typesOf(model, sub).has('array') && !formObjects.includes(name))
    .map(([name]) => name);
  const formSteps = formEncodingDecoders(model, op);
  const jsonText = textAsJson(model, op);
  const length = bodylessLength(op);
  if (
    steps.length === 0 &&
    formFields.length === 0 &&
    formSteps.length === 0 &&
    !jsonText &&
    !length
  )
    return undefined;
  return (request) => {
    if (jsonText) request.body = jsonText(request.body);
    if (length && typeof request.headers === 'object' && request.headers !== null)
      length(request.headers as Bag);
    const body = request.body as Bag | undefined;
    if (typeof body === 'object' && body !== null) {
      for (const step of formSteps) step(body);
      for (const name of formObjects) gatherDeep(body, name, true);
      for (const name of formLists)
        if (Object.keys(body).some((k) => k.startsWith(`${name}[`))) gatherDeep(body, name, true);
      // Lists gathered as objects, JSON items, empty texts for null (form-shape.ts).
      if (op.body?.kind === 'form') shapeFormValue(model, op.body.schema, body);
    }
    const raw = rawQueryOf(request.url);
    for (const { where, decode } of steps) {
      const bag = request[where] as Bag | undefined;
      if (typeof bag === 'object' && bag !== null) decode(bag, raw);
    }
  };
}
