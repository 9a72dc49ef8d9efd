/**
 * Real identifiers for an operation on an identified resource (`/books/{bookId}`), so that its
 * requests name something the target has instead of a value the suite made up:
 *
 * - read from the collection's list: a GET on the path before the parameter (`/books`) whose
 *   items carry the field the parameter names (`bookId`, `book_id`, `id`); nothing is written;
 * - or created: for an operation that writes on the resource itself (PUT, PATCH, DELETE), and
 *   where no list gives one, the collection's create operation (a POST on `/books`) is sent and
 *   the id read from its answer (the same field, or the last segment of a `Location` header):
 *   only when writes are allowed (always against the embedded mock). What the suite created is
 *   deleted again after the operation's checks; an operation that deletes it is checked to have
 *   done so (the resource is gone).
 *
 * Explicit OpenAPI links into an operation are followed first (sequences.ts pathFromLink); this
 * is the inference where a description has none, as Schemathesis infers its links. A value found
 * for a collection is kept for the run (one list request per collection, not one per operation).
 */
import { deref, type Operation, type ServiceModel } from 'dataapi/model';
import { readEnvelope, validatorFor } from 'dataapi/runtime/shared';
import type { Transport } from './http.ts';
import { ok, type Probe } from './probe.ts';
import { validRequests } from './requests.ts';
import type { Send } from './sequences.ts';
import { hold, type HeldResource, type Lease } from './held.ts';

/** A resource the suite created for an operation, to delete once its checks have their answers. */
export interface Created {
  /** The operation on the item template that deletes it, when the description has one. */
  remover?: Operation;
  /** The item's reader (a GET on the same template), for the check that a deletion took. */
  reader?: Operation;
  path: Record<string, unknown>;
  /** What the suite sent to create it (`POST /books` answered HTTP 201). */
  how: string;
  /**
   * Held for the run (held.ts): the user's test data named it, so it is shared and deleted at
   * the end, not after this operation.
   */
  held?: boolean;
}

export interface TestData {
  /** Path values the target gave (absent: none found; the suite's own values stand). */
  path: Record<string, unknown>;
  /** Whether a path value is still made up. */
  invented: boolean;
  created?: Created;
  /** Holds on the resources the user's test data named, released once the operation is done. */
  leases: Lease[];
}

/** Field names an item may carry a parameter's value in: `bookId` -> bookId, book_id, id, ... */
export function idFields(param: string): string[] {
  const snake = param.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const camel = snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const stem = snake.replace(/_?id$/, '');
  const stemCamel = stem.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  return [
    ...new Set([
      param,
      camel,
      snake,
      'id',
      stem ? `${stem}_id` : '',
      stem ? `${stemCamel}Id` : '',
      // Last: some items are named, not numbered (Jupyter's terminals); the parameter's own
      // schema still has to admit the value.
      'name',
    ]),
  ].filter(Boolean);
}

/** The value of the first id field an object carries (a string or a number), if any. */
export function idIn(item: unknown, fields: string[]): string | number | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  for (const f of fields) {
    const v = (item as Record<string, unknown>)[f];
    if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v)))
      return v;
  }
  return undefined;
}

/** The items of a list answer: the payload itself, or its first array property of objects. */
function itemsOf(payload: unknown): unknown[] {
  if (Array.isArray(payload)) return payload;
  if (typeof payload !== 'object' || payload === null) return [];
  for (const v of Object.values(payload))
    if (Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null)) return v;
  return [];
}

/** Each path parameter of a template with the collection path before it (`/books` for bookId). */
function segments(template: string): { name: string; collection: string }[] {
  const out: { name: string; collection: string }[] = [];
  const re = /\/\{([^}/]+)\}(?=\/|$)/g;
  for (let m = re.exec(template); m; m = re.exec(template))
    out.push({ name: m[1]!, collection: template.slice(0, m.index) });
  return out;
}

export const opAt = (model: ServiceModel, method: string, path: string) =>
  model.operations.find((o) => o.method === method && o.path === path);

/**
 * The collection's operation: at the path before the parameter, or at its plural where the item
 * is named in the singular (`/silences` for `/silence/{silenceID}`, as Alertmanager has it).
 */
const collectionOp = (model: ServiceModel, method: string, collection: string) =>
  opAt(model, method, collection) ??
  (/[a-z]$/i.test(collection) ? opAt(model, method, `${collection}s`) : undefined);

const fill = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{([^}]+)\}/g, (whole, n: string) =>
    values[n] === undefined ? whole : encodeURIComponent(String(values[n])),
  );

/** Values found per model and concrete collection path (one list request per collection). */
const listed = new WeakMap<ServiceModel, Map<string, Promise<string | number | undefined>>>();

export async function testDataFor(
  model: ServiceModel,
  op: Operation,
  t: Transport,
  send: Send,
  invented: (name: string) => boolean,
): Promise<TestData> {
  const path: Record<string, unknown> = {};
  const params = segments(op.path).filter((s) => invented(s.name));
  let created: Created | undefined;
  const leases: Lease[] = [];
  for (const [i, s] of params.entries()) {
    if (s.collection.includes('{') && !resolved(s.collection, path, invented)) break;
    const own = i === params.length - 1 && op.path.endsWith(`{${s.name}}`) && op.writes;
    let value: string | number | undefined;
    const given = t.config.allowWrites ? givenCreator(model, s.collection) : undefined;
    if (given) {
      // The user's create names one resource: held for the run, never created twice at once.
      const lease = await hold(model, given, own);
      leases.push(lease);
      const held =
        lease.resource ?? (await lease.create(() => createHeld(model, op, s, path, t, send)));
      value = held?.path[s.name] as string | number | undefined;
      if (held && i === params.length - 1) created = { ...createdOf(held), held: true };
    } else {
      // An operation that changes or deletes the resource gets one of its own, never a listed one.
      value = own ? undefined : await fromList(model, s, path, t, send);
      if (value === undefined && t.config.allowWrites && i === params.length - 1) {
        const c = await create(model, op, s, path, t, send);
        if (c) {
          value = c.value;
          created = c.created;
        }
      }
    }
    // A value the parameter's own schema refuses is no identifier of it (another field's).
    if (value === undefined || !fits(model, op, s.name, value)) break;
    path[s.name] = value;
  }
  const left = op.parameters.path.some((p) => invented(p.name) && path[p.name] === undefined);
  return { path, invented: left, leases, ...(created ? { created } : {}) };
}

/** The collection's create operation when its valid request's body is the user's (--test-data). */
function givenCreator(model: ServiceModel, collection: string): Operation | undefined {
  const creator = collectionOp(model, 'post', collection);
  return creator && validRequests(model, creator)[0]?.given ? creator : undefined;
}

/** The resource the user's create names, created (once) for the run. */
async function createHeld(
  model: ServiceModel,
  op: Operation,
  s: { name: string; collection: string },
  path: Record<string, unknown>,
  t: Transport,
  send: Send,
): Promise<HeldResource | undefined> {
  const c = await create(model, op, s, path, t, send);
  if (!c) return undefined;
  const { remover, reader, how } = c.created;
  return {
    path: c.created.path,
    param: s.name,
    how,
    ...(remover ? { remover } : {}),
    ...(reader ? { reader } : {}),
  };
}

const createdOf = (h: HeldResource): Created => ({
  path: h.path,
  how: h.how,
  ...(h.remover ? { remover: h.remover } : {}),
  ...(h.reader ? { reader: h.reader } : {}),
});

/** Whether a value fits the operation's path parameter of that name (as text, as a path sends it). */
export function fits(
  model: ServiceModel,
  op: Operation,
  name: string,
  value: string | number,
): boolean {
  const p = op.parameters.path.find((x) => x.name === name);
  if (!p) return false;
  const validate = validatorFor(model).compile(p.schema);
  const numeric = typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value));
  return (
    validate(value) ||
    (typeof value === 'number' && validate(String(value))) ||
    (numeric && validate(Number(value)))
  );
}

/** Whether every parameter of a collection path has a value the target gave (or needs none). */
const resolved = (
  collection: string,
  path: Record<string, unknown>,
  invented: (name: string) => boolean,
) => segments(collection).every((s) => !invented(s.name) || path[s.name] !== undefined);

async function fromList(
  model: ServiceModel,
  s: { name: string; collection: string },
  path: Record<string, unknown>,
  t: Transport,
  send: Send,
): Promise<string | number | undefined> {
  const lister = collectionOp(model, 'get', s.collection);
  if (!lister) return undefined;
  const key = `${fill(s.collection, path)} ${s.name}`;
  let cache = listed.get(model);
  if (!cache) listed.set(model, (cache = new Map()));
  let found = cache.get(key);
  if (!found) {
    found = (async () => {
      const spec = validRequests(model, lister)[0];
      if (!spec) return undefined;
      const p = await send(
        'lifecycle',
        lister,
        { ...spec, path: { ...spec.path, ...path } },
        `${lister.id} for a ${s.name} the target has`,
        { keyMode: 'key', testData: true },
      );
      if (!ok(p)) return undefined;
      const fields = idFields(s.name);
      for (const item of itemsOf(readEnvelope(lister, p.exchange.json).payload)) {
        const v = idIn(item, fields);
        if (v !== undefined) return v;
      }
      return undefined;
    })();
    cache.set(key, found);
  }
  return found;
}

async function create(
  model: ServiceModel,
  op: Operation,
  s: { name: string; collection: string },
  path: Record<string, unknown>,
  t: Transport,
  send: Send,
): Promise<{ value: string | number; created: Created } | undefined> {
  const creator = collectionOp(model, 'post', s.collection);
  const spec = creator && validRequests(model, creator)[0];
  if (!creator || !spec) return undefined;
  const p: Probe = await send(
    'lifecycle',
    creator,
    {
      ...spec,
      path: { ...spec.path, ...path },
      // The user's own test data is sent as given (it may name the resource on purpose).
      ...(spec.given ? {} : withoutOwnId(model, creator, spec.body, s.name)),
    },
    `${creator.id} to create a ${s.name} for ${op.id}`,
    { keyMode: 'key', testData: true },
  );
  if (!ok(p)) return undefined;
  const value =
    idIn(readEnvelope(creator, p.exchange.json).payload, idFields(s.name)) ??
    fromLocation(p.exchange.headers['location']);
  if (value === undefined) return undefined;
  const item = `${s.collection}/{${s.name}}`;
  const remover = opAt(model, 'delete', item);
  const reader = opAt(model, 'get', item);
  return {
    value,
    created: {
      path: { ...path, [s.name]: value },
      how: `${creator.method.toUpperCase()} ${fill(s.collection, path)} answered HTTP ${p.exchange.record.status}`,
      ...(remover ? { remover } : {}),
      ...(reader ? { reader } : {}),
    },
  };
}

/**
 * A create request's body without an optional id of the resource (a POST naming its own id is,
 * to many servers, an update of that resource: Alertmanager's silences).
 */
function withoutOwnId(
  model: ServiceModel,
  creator: Operation,
  body: unknown,
  name: string,
): { body?: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !creator.body) return {};
  const schema = deref(model, creator.body.schema);
  const required = new Set(
    typeof schema === 'object' && Array.isArray(schema['required']) ? schema['required'] : [],
  );
  const copy = { ...(body as Record<string, unknown>) };
  for (const f of idFields(name)) if (!required.has(f)) delete copy[f];
  return { body: copy };
}

/** The last segment of a Location header's path: `/books/b7` -> `b7`. */
function fromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  try {
    const last = new URL(location, 'http://x').pathname.split('/').filter(Boolean).at(-1);
    return last === undefined ? undefined : decodeURIComponent(last);
  } catch {
    return undefined;
  }
}

/**
 * What an operation's own valid requests created, to delete again: for a create operation (a POST
 * on a collection with a DELETE on its items), the path of each item its successful answers name.
 */
export function createdBy(
  model: ServiceModel,
  op: Operation,
  probes: readonly Probe[],
): { remover: Operation; path: Record<string, unknown> }[] {
  if (op.method !== 'post') return [];
  const remover = model.operations.find(
    (o) =>
      o.method === 'delete' &&
      o.path.startsWith(`${op.path}/{`) &&
      /^\{[^}/]+\}$/.test(o.path.slice(op.path.length + 1)),
  );
  if (!remover) return [];
  const name = remover.path.slice(op.path.length + 2, -1);
  return probes
    .filter((p) => p.op === op && p.role === 'valid' && ok(p))
    .flatMap((p) => {
      const value =
        idIn(readEnvelope(op, p.exchange.json).payload, idFields(name)) ??
        fromLocation(p.exchange.headers['location']);
      return value === undefined ? [] : [{ remover, path: { ...p.spec?.path, [name]: value } }];
    });
}

/**
 * Once an operation's probes have their answers: what its own requests created, and the resource
 * the suite created for it, are deleted again (`quiet`: not judged here); where the operation
 * itself deleted that resource, it must be gone (`send`: judged). A target that answers any
 * identifier alike (a stateless mock) cannot show that, and is not held to it.
 */
export async function cleanUp(
  model: ServiceModel,
  op: Operation,
  probes: readonly Probe[],
  created: Created | undefined,
  send: Send,
  quiet: Send,
): Promise<{ problems: string[]; note: string } | undefined> {
  const withPath = (target: Operation, values: Record<string, unknown>) => {
    const spec = validRequests(model, target)[0]!;
    return { ...spec, path: { ...spec.path, ...values } };
  };
  for (const c of createdBy(model, op, probes))
    await quiet(
      'lifecycle',
      c.remover,
      withPath(c.remover, c.path),
      `clean up what ${op.id} created`,
      {
        keyMode: 'key',
      },
    );
  if (!created) return undefined;
  const deleted = op === created.remover && probes.some((p) => p.role === 'valid' && ok(p));
  if (!deleted) {
    // A held resource stays for the operations after this one (held.ts deletes it at the end).
    if (created.remover && !created.held)
      await quiet(
        'lifecycle',
        created.remover,
        withPath(created.remover, created.path),
        `clean up what ${created.how}`,
        { keyMode: 'key' },
      );
    return undefined;
  }
  if (!created.reader) return undefined;
  const reader = created.reader;
  const after = await send(
    'lifecycle',
    reader,
    withPath(reader, created.path),
    `${reader.id} after the delete`,
    {
      keyMode: 'key',
    },
  );
  if (!ok(after))
    return {
      problems: [],
      note: `the deleted resource is gone (${reader.id} answered HTTP ${after.exchange.record.status})`,
    };
  const other = await send(
    'lifecycle',
    reader,
    validRequests(model, reader)[0]!,
    `${reader.id} with a made-up identifier`,
    {
      keyMode: 'key',
    },
  );
  if (ok(other))
    return {
      problems: [],
      note: 'whether the deleted resource is gone is not checked: the target answers a made-up identifier alike',
    };
  // Only a target that says "no such resource" to a made-up id (404, 410) shows how it answers
  // a missing one: a 400 says the id itself was refused (a made-up value its pattern does not
  // take: AWS Omics' `[0-9]+`, at least 10 long), which proves nothing about the deleted one.
  const missing = other.exchange.record.status;
  if (missing !== 404 && missing !== 410)
    return {
      problems: [],
      note: `whether the deleted resource is gone is not checked: a made-up identifier was answered HTTP ${missing}, not as missing (404, 410)`,
    };
  return {
    problems: [
      `${reader.id} still answers HTTP ${after.exchange.record.status} for what ${op.id} deleted (${created.how})`,
    ],
    note: 'a deleted resource is gone',
  };
}
