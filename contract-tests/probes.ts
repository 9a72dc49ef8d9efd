/**
 * The requests a file sends for one operation and variant, made once and shared by the checks:
 * valid examples, a paging probe, authentication probes, negative cases, wrong method / unknown
 * path / wrong content type, and the stateful sequences its links lead to (sequences.ts).
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import type { Transport } from './http.ts';
import { negativeCases } from './negatives.ts';
import type { Probe, ProbeSet, Role } from './probe.ts';
import {
  requestWarnings,
  serialise,
  validRequests,
  type KeyMode,
  type RequestSpec,
} from './requests.ts';
import { linkInto } from './links.ts';
import { rememberSent } from './recheck.ts';
import { pathFromLink, sequences } from './sequences.ts';
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

export async function runProbes(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  t: Transport,
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

  let valid = validRequests(model, op);
  let uncertain = false;
  const linkWarnings: DescriptionWarning[] = [];
  // An operation a link leads to (an async task's status) needs a value the target knows: the
  // link's source is sent first (when it writes, only when writes are allowed).
  if (variant === 'main' && linkInto(model, op)) {
    const { path, warning } = await pathFromLink(model, op, t, send);
    if (warning) linkWarnings.push(warning);
    if (path) valid = valid.map((v) => ({ ...v, path: { ...v.path, ...path } }));
    else uncertain = true;
  }
  for (const spec of valid) {
    const asked = askedPageSize(op, spec);
    await send('valid', op, spec, `valid request (${spec.name})`, {
      uncertain,
      ...(asked !== undefined ? { pageSize: asked } : {}),
    });
  }
  const first = valid[0]!;
  const paging = pageSizeField(op, first);
  if (paging) {
    const spec =
      paging.loc === 'query'
        ? { ...first, query: { ...first.query, [paging.name]: paging.min } }
        : { ...first, body: { ...(first.body as object), [paging.name]: paging.min } };
    await send('paging', op, spec, `paging probe (${paging.name}=${paging.min})`, {
      pageSize: paging.min,
      uncertain,
    });
  }
  const warnings = variant === 'main' ? [...requestWarnings(model, op), ...linkWarnings] : [];
  const set: ProbeSet = { variant, probes, ...(warnings.length > 0 ? { warnings } : {}) };
  if (variant === 'preview') return set;

  if (op.auth.required && op.auth.transports.length > 0) {
    await send('no-key', op, first, 'no key', { keyMode: 'none', uncertain });
    await send('wrong-key', op, first, 'wrong key', { keyMode: 'wrong', uncertain });
  }
  for (const c of negativeCases(model, op))
    await send('negative', op, c.apply(first), `negative: ${c.label}`, { negative: c, uncertain });

  const wrong = wrongMethod(model, op, first);
  if (wrong)
    await send('wrong-method', op, first, `wrong method ${wrong.toUpperCase()}`, {
      method: wrong,
      uncertain,
    });
  const unknown = `${op.path.replace(/\/$/, '')}/dataapi-contract-no-such-path`;
  if (!model.operations.some((o) => matches(o.path, unknown) || matches(o.preview?.path, unknown)))
    await send('unknown-path', op, first, 'unknown path', { path: unknown });
  // GET and HEAD send no body (fetch refuses one): no content type to get wrong.
  const carriesBody = op.method !== 'get' && op.method !== 'head';
  if (op.body && carriesBody && op.body.kind !== 'text' && op.body.kind !== 'binary') {
    const wrongType = op.body.kind === 'json' ? 'text/plain' : 'application/json';
    await send('wrong-content-type', op, first, `body sent as ${wrongType}`, {
      contentType: wrongType,
      uncertain,
    });
  }
  const { warnings: found, ...lifecycle } = await sequences(model, op, probes, t, send);
  set.lifecycle = lifecycle;
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
    model.operations
      .filter(
        (o) =>
          o.path === op.path || matches(o.path, concrete) || matches(o.preview?.path, concrete),
      )
      .map((o) => o.method),
  );
  return ['get', 'post', 'patch', 'put', 'delete'].find((m) => !taken.has(m as never));
}

/**
 * Each template's pattern, made once per worker: every operation asks about every template (its
 * wrong method and unknown path), and making the patterns anew each time cost GitHub's 1,223
 * operations about 9 s of CPU per worker.
 */
const patterns = new Map<string, RegExp>();

function matches(template: string | undefined, path: string): boolean {
  if (!template) return false;
  let re = patterns.get(template);
  if (!re) {
    re = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
    );
    patterns.set(template, re);
  }
  return re.test(path);
}
