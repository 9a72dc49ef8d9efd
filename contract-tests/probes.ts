/**
 * The requests a file sends for one operation and variant, made once and shared by the checks:
 * valid examples, a paging probe, authentication probes, negative cases, wrong method / unknown
 * path / wrong content type, and the stateful sequences its links lead to (sequences.ts).
 */
import { deref, type Operation, type ServiceModel } from 'dataapi/model';
import type { Transport } from './http.ts';
import { negativeCases } from './negatives.ts';
import type { Probe, ProbeSet, Role } from './probe.ts';
import { requestWarnings, validRequests, type KeyMode, type RequestSpec } from './requests.ts';
import { responseExampleWarnings } from './example-warnings.ts';
import { serialise } from './serialise.ts';
import { linkInto } from './links.ts';
import { rememberSent } from './recheck.ts';
import { lacksCredentials } from './checks/static-skip.ts';
import { cleanUp, testDataFor, type Created } from './test-data.ts';
import { hold, type Lease } from './held.ts';
import { followRename } from './renames.ts';
import { ok } from './probe.ts';
import { pathFromLink, sequences, type Send } from './sequences.ts';
import { operationPreference } from './shared-route.ts';
import type { DescriptionWarning } from './warnings.ts';
import type { Variant } from './exchange.ts';

export type { Probe, ProbeSet, Role } from './probe.ts';
export { ok } from './probe.ts';

export interface SendExtra extends Partial<Probe> {
  keyMode?: KeyMode;
  method?: string;
  contentType?: string;
  path?: string;
}

/** Serialises and sends one request of an operation's file (the variant's path and key). */
export async function sendProbe(
  model: ServiceModel,
  t: Transport,
  op: Operation,
  variant: Variant,
  role: Role,
  target: Operation,
  spec: RequestSpec,
  purpose: string,
  extra: SendExtra = {},
): Promise<Probe> {
  const req = serialise(target, spec, {
    path: extra.path ?? (target === op && variant === 'preview' ? op.preview!.path : target.path),
    key: extra.keyMode ?? (variant === 'preview' ? 'none' : 'key'),
    appkey: t.config.appkey,
    purpose,
    model,
    ...(extra.method ? { method: extra.method } : {}),
    ...(extra.contentType ? { contentType: extra.contentType } : {}),
  });
  const prefer = operationPreference(model, target);
  if (prefer !== undefined) req.headers['prefer'] = prefer;
  const exchange = await t.send(target, req);
  const probe: Probe = { role, op: target, exchange, spec };
  rememberSent(probe, req);
  if (extra.generated) probe.generated = true;
  if (extra.negative) probe.negative = extra.negative;
  if (extra.pageSize !== undefined) probe.pageSize = extra.pageSize;
  if (extra.uncertain) probe.uncertain = true;
  if (extra.invented) probe.invented = true;
  if (extra.testData) probe.testData = true;
  if (spec.unsatisfied && (role === 'valid' || role === 'paging'))
    probe.unsatisfied = spec.unsatisfied;
  if (extra.method) probe.method = extra.method;
  if (extra.fuzz) probe.fuzz = extra.fuzz;
  return probe;
}

/** The page-size parameter or body field of an operation (the model's `paging`), if it has one. */
export function pageSizeField(
  op: Operation,
  spec: RequestSpec,
): { loc: 'query' | 'body'; name: string; min: number } | undefined {
  const paging = op.paging;
  if (!paging) return undefined;
  if (paging.in === 'body' && (typeof spec.body !== 'object' || spec.body === null))
    return undefined;
  return { loc: paging.in, name: paging.name, min: paging.minimum };
}

/**
 * The page size a request asks for, when the paging check can hold the answer to it: a number of
 * at least one (a zero or negative size, which a schema without a minimum allows, promises nothing).
 */
export function askedPageSize(op: Operation, spec: RequestSpec): number | undefined {
  const paging = pageSizeField(op, spec);
  if (!paging) return undefined;
  const asked = Number(
    paging.loc === 'query'
      ? spec.query[paging.name]
      : (spec.body as Record<string, unknown>)[paging.name],
  );
  return Number.isFinite(asked) && asked >= 1 ? asked : undefined;
}

type SendOf = (
  role: Role,
  target: Operation,
  spec: RequestSpec,
  purpose: string,
  extra?: SendExtra,
) => Promise<Probe>;

/**
 * The operation's requests. `then` (fuzzing) runs on the finished set while the resources it
 * used are still held: a fuzzed PUT on a held resource has it alone, as the fixed PUT had.
 */
export async function runProbes(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  t: Transport,
  then?: (set: ProbeSet) => Promise<void>,
): Promise<ProbeSet> {
  const probes: Probe[] = [];
  const send = async (
    role: Role,
    target: Operation,
    spec: RequestSpec,
    purpose: string,
    extra: SendExtra = {},
  ) => {
    const probe = await sendProbe(model, t, op, variant, role, target, spec, purpose, extra);
    probes.push(probe);
    return probe;
  };

  // Before any request, as when they were worked out with the valid requests: a schema Ajv cannot
  // compile fails the operation's set before it sends anything.
  const examples =
    variant !== 'main'
      ? undefined
      : t.responseExampleWarnings
        ? await t.responseExampleWarnings(op)
        : responseExampleWarnings(model, op);
  let valid = validRequests(model, op);
  let uncertain = false;
  // A path value the suite made up (an example or a sample, not an identifier the target gave):
  // a 404 on it says the target lacks that resource, not that it breaks the description.
  let invented = inventsPathValues(model, op);
  const linkWarnings: DescriptionWarning[] = [];
  // An operation a link leads to (an async task's status) needs a value the target knows: the
  // link's source is sent first (when it writes, only when writes are allowed).
  if (variant === 'main' && linkInto(model, op)) {
    const { path, warning } = await pathFromLink(model, op, t, send);
    if (warning) linkWarnings.push(warning);
    if (path) {
      valid = valid.map((v) => ({ ...v, path: { ...v.path, ...path } }));
      invented = false;
    } else uncertain = true;
  }
  // Without credentials a secured operation is not tested (static-skip.ts); only its refusals of
  // no key and a wrong key are, and nothing else is sent.
  if (lacksCredentials(op, variant, t.config)) {
    await send('no-key', op, valid[0]!, 'no key', { keyMode: 'none' });
    await send('wrong-key', op, valid[0]!, 'wrong key', { keyMode: 'wrong' });
    return { variant, probes };
  }
  // Identifiers the target has (its list) or gives (a resource created for the operation).
  let created: Created | undefined;
  const leases: Lease[] = [];
  // Inferred only where the description gives no link into the operation (explicit links rule).
  if (variant === 'main' && invented && !linkInto(model, op)) {
    const data = await testDataFor(model, op, t, send, (name) =>
      inventedParameter(model, op, name),
    );
    leases.push(...data.leases);
    if (Object.keys(data.path).length > 0)
      valid = valid.map((v) => ({ ...v, path: { ...v.path, ...data.path } }));
    invented = data.invented;
    created = data.created;
  }
  try {
    // The user's create sends the body that names the held resource: it runs with that resource
    // held alone and deleted first, or the target rightly refuses the same create twice.
    if (variant === 'main' && t.config.allowWrites && op.method === 'post' && valid[0]?.given) {
      const lease = await hold(model, op, true);
      leases.push(lease);
      await lease.clear();
    }
    const set = await probesOn(model, op, variant, t, send, probes, {
      valid,
      uncertain,
      invented,
      created,
      leases,
      examples,
      linkWarnings,
    });
    await then?.(set);
    return set;
  } finally {
    for (const lease of leases) lease.release();
  }
}

/** The requests of the operation once its identifiers are known (held ones stay held till the end). */
async function probesOn(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  t: Transport,
  send: SendOf,
  probes: Probe[],
  known: {
    valid: RequestSpec[];
    uncertain: boolean;
    invented: boolean;
    created: Created | undefined;
    leases: Lease[];
    examples: DescriptionWarning[] | undefined;
    linkWarnings: DescriptionWarning[];
  },
): Promise<ProbeSet> {
  const { uncertain, examples, linkWarnings, leases } = known;
  let { valid, invented, created } = known;
  // By index: a rename changes the requests after it.
  for (let i = 0; i < valid.length; i++) {
    const spec = valid[i]!;
    const asked = askedPageSize(op, spec);
    const p = await send('valid', op, spec, `valid request (${spec.name})`, {
      uncertain,
      invented,
      ...(asked !== undefined ? { pageSize: asked } : {}),
    });
    // A delete that took: the later requests name a resource that is gone, and a 404 to them
    // (a wrong method on it) is no fault of the target's.
    if (op.method === 'delete' && created && ok(p)) invented = true;
    // An update that renamed its resource: the later requests name it by its new identifier.
    const r = variant === 'main' ? await followRename(model, op, spec, p, send) : undefined;
    if (!r?.renamed) continue;
    const lease = leases.find((l) => l.resource?.param === r.param);
    if ('lost' in r) {
      // Named by nothing the suite knows: a 404 to the later requests is missing test data.
      invented = true;
      lease?.forget();
      created = undefined;
      continue;
    }
    valid = valid.map((v, j) => (j <= i ? v : { ...v, path: { ...v.path, [r.param]: r.value } }));
    valid[0] = { ...valid[0]!, path: { ...valid[0]!.path, [r.param]: r.value } };
    lease?.rename(r.value);
    if (created) created = { ...created, path: { ...created.path, [r.param]: r.value } };
  }
  const first = valid[0]!;
  // A body the description makes optional may be left out: that request is valid too, and
  // servers that read the body unconditionally fail it (docs/field.md H15). Not on a DELETE,
  // whose first valid request already removed the resource.
  if (op.body && op.body.required !== true && ['post', 'put', 'patch'].includes(op.method))
    await send(
      'valid',
      op,
      { ...first, name: 'optional body left out', omitBody: true },
      'valid request (optional body left out)',
      { uncertain, invented },
    );
  const paging = pageSizeField(op, first);
  if (paging) {
    const spec =
      paging.loc === 'query'
        ? { ...first, query: { ...first.query, [paging.name]: paging.min } }
        : { ...first, body: { ...(first.body as object), [paging.name]: paging.min } };
    await send('paging', op, spec, `paging probe (${paging.name}=${paging.min})`, {
      pageSize: paging.min,
      uncertain,
      invented,
    });
  }
  const warnings = examples ? [...requestWarnings(model, op), ...examples, ...linkWarnings] : [];
  const set: ProbeSet = { variant, probes, ...(warnings.length > 0 ? { warnings } : {}) };
  if (variant === 'preview') return set;

  if (op.auth.required && op.auth.transports.length > 0) {
    await send('no-key', op, first, 'no key', { keyMode: 'none', uncertain, invented });
    await send('wrong-key', op, first, 'wrong key', { keyMode: 'wrong', uncertain, invented });
  }
  for (const c of negativeCases(model, op))
    await send('negative', op, c.apply(first), `negative: ${c.label}`, {
      negative: c,
      uncertain,
      invented,
    });

  const wrong = wrongMethod(model, op, first);
  if (wrong)
    await send('wrong-method', op, first, `wrong method ${wrong.toUpperCase()}`, {
      method: wrong,
      uncertain,
      invented,
    });
  const unknown = `${op.path.replace(/\/$/, '')}/dataapi-contract-no-such-path`;
  if (!templatesMatching(model, unknown).length)
    await send('unknown-path', op, first, 'unknown path', { path: unknown });
  // GET and HEAD send no body (fetch refuses one): no content type to get wrong.
  const carriesBody = op.method !== 'get' && op.method !== 'head';
  if (op.body && carriesBody && op.body.kind !== 'text' && op.body.kind !== 'binary') {
    const wrongType = op.body.kind === 'json' ? 'text/plain' : 'application/json';
    await send('wrong-content-type', op, first, `body sent as ${wrongType}`, {
      contentType: wrongType,
      uncertain,
      invented,
    });
  }
  const { warnings: found, ...lifecycle } = await sequences(model, op, probes, t, send);
  set.lifecycle = lifecycle;
  // What the suite created (for the operation, or by the operation's own requests) is deleted
  // again, without being judged here; a deletion the operation made is checked to have taken.
  const quiet: Send = (role, target, spec, purpose, extra) =>
    sendProbe(model, t, op, 'main', role, target, spec, purpose, extra);
  const after = await cleanUp(model, op, probes, created, send, quiet);
  // A held resource the operation deleted is created again by the next operation that needs it.
  if (created?.held && op === created.remover && probes.some((p) => p.role === 'valid' && ok(p)))
    for (const lease of leases) {
      const r = lease.resource;
      if (r && r.path[r.param] === created.path[r.param]) lease.forget();
    }
  if (after)
    set.lifecycle = {
      ran: true,
      problems: [...(lifecycle.ran ? lifecycle.problems : []), ...after.problems],
      note: [lifecycle.ran ? lifecycle.note : '', after.note].filter(Boolean).join('; '),
    };
  if (found) set.warnings = [...(set.warnings ?? []), ...found];
  return set;
}

/**
 * A method no operation takes at the request's concrete path: every template that path matches
 * counts (`/channels/x/messages/bulk-delete` also matches `/channels/{id}/messages/{message_id}`),
 * since a router would route the request to any of them.
 */
export function wrongMethod(
  model: ServiceModel,
  op: Operation,
  spec: RequestSpec,
): string | undefined {
  let concrete = op.path;
  for (const [name, value] of Object.entries(spec.path))
    concrete = concrete.split(`{${name}}`).join(encodeURIComponent(String(value)));
  const taken = new Set(
    [...samePath(model, op.path), ...templatesMatching(model, concrete)].map((o) => o.method),
  );
  return ['get', 'post', 'patch', 'put', 'delete'].find((m) => !taken.has(m as never));
}

/** One template (an operation's path or its preview's) and its pattern. */
interface Template {
  ops: Operation[];
  re: RegExp;
}

/**
 * The model's templates, by the number of slashes and the first segment (`*` when that is a
 * parameter), made once per model and worker. A template's pattern matches only paths with as
 * many slashes (a parameter stands for one non-empty segment) and, unless its first segment holds
 * a parameter, the same first segment: asking every template about every operation's paths (its
 * wrong method, its unknown path) cost GitHub's 1,223 operations about 2 s of a worker's CPU.
 */
const indexes = new WeakMap<ServiceModel, Map<string, Template[]>>();
const templates = new WeakMap<ServiceModel, Map<string, Operation[]>>();
const paths = new WeakMap<ServiceModel, Map<string, Operation[]>>();

const ANY = 'any';
const bucketOf = (path: string, first: string) => `${path.split('/').length} ${first}`;

function byTemplate(model: ServiceModel): Map<string, Operation[]> {
  let known = templates.get(model);
  if (!known) {
    known = new Map();
    for (const o of model.operations)
      for (const t of [o.path, o.preview?.path]) {
        if (!t) continue;
        const ops = known.get(t) ?? [];
        if (!ops.includes(o)) ops.push(o);
        known.set(t, ops);
      }
    templates.set(model, known);
  }
  return known;
}

/** The operations whose own path (not a preview's) is this template. */
function samePath(model: ServiceModel, template: string): Operation[] {
  let known = paths.get(model);
  if (!known) {
    known = new Map();
    for (const o of model.operations) known.set(o.path, [...(known.get(o.path) ?? []), o]);
    paths.set(model, known);
  }
  return known.get(template) ?? [];
}

function indexOf(model: ServiceModel): Map<string, Template[]> {
  let index = indexes.get(model);
  if (!index) {
    index = new Map();
    for (const [t, ops] of byTemplate(model)) {
      const first = t.split('/')[1] ?? '';
      // A parameter's braces around a slash (never in practice) stand in every bucket's stead.
      const key = /\{[^}]*\/[^}]*\}/.test(t) ? ANY : bucketOf(t, first.includes('{') ? '*' : first);
      const re = new RegExp(
        `^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
      );
      index.set(key, [...(index.get(key) ?? []), { ops, re }]);
    }
    indexes.set(model, index);
  }
  return index;
}

/** The operations one of whose templates (path or preview path) matches a concrete path. */
function templatesMatching(model: ServiceModel, path: string): Operation[] {
  const index = indexOf(model);
  const candidates = [
    ...(index.get(bucketOf(path, path.split('/')[1] ?? '')) ?? []),
    ...(index.get(bucketOf(path, '*')) ?? []),
    ...(index.get(ANY) ?? []),
  ];
  return candidates.filter((c) => c.re.test(path)).flatMap((c) => c.ops);
}

/**
 * Whether the operation's path takes a value the suite can only make up: a path parameter with no
 * const, no enum and no value the path key fixes. An enum names resources the description itself
 * lists, so a 404 on one of them is the target's.
 */
export function inventsPathValues(model: ServiceModel, op: Operation): boolean {
  return op.parameters.path.some((p) => inventedParameter(model, op, p.name));
}

/** Whether the suite can only make up this path parameter's value (see inventsPathValues). */
export function inventedParameter(model: ServiceModel, op: Operation, name: string): boolean {
  const p = op.parameters.path.find((x) => x.name === name);
  if (!p || p.fixed !== undefined) return false;
  const s = deref(model, p.schema);
  return !(typeof s === 'object' && ('const' in s || Array.isArray(s['enum'])));
}
