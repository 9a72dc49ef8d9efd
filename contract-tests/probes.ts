/**
 * The requests a file sends for one operation and variant, made once and shared by the checks:
 * valid examples, a paging probe, authentication probes, negative cases, wrong method / unknown
 * path / wrong content type, and the asynchronous lifecycle or upload round trip.
 */
import type { JsonSchema, Operation, ServiceModel } from 'dataapi/model';
import { findOperation, readEnvelope } from 'dataapi/runtime/shared';
import type { Exchange, Transport } from './http.ts';
import { negativeCases, type NegativeCase } from './negatives.ts';
import {
  requestWarnings,
  serialise,
  validRequests,
  type KeyMode,
  type RequestSpec,
} from './requests.ts';
import { effective, typesOf } from 'dataapi/runtime/sampler';
import { operationPreference } from './shared-route.ts';
import type { Variant } from './exchange.ts';
import type { DescriptionWarning } from './warnings.ts';

export type Role =
  | 'valid'
  | 'paging'
  | 'no-key'
  | 'wrong-key'
  | 'negative'
  | 'wrong-method'
  | 'unknown-path'
  | 'wrong-content-type'
  | 'lifecycle';

export interface Probe {
  role: Role;
  /** The operation the request was sent to (the lifecycle polls the partner). */
  op: Operation;
  exchange: Exchange;
  negative?: NegativeCase;
  /** Page size asked for (paging probes and valid requests that carry one). */
  pageSize?: number;
  /** The request used an example id the target may not know (404 is then acceptable). */
  uncertain?: boolean;
  /** A schema of the request admits no value the sampler finds (RequestSpec.unsatisfied). */
  unsatisfied?: { pointer: string; why: string };
  /** Method sent on a wrong-method probe. */
  method?: string;
}

export interface ProbeSet {
  variant: Variant;
  probes: Probe[];
  /** Problems found while driving the lifecycle / round trip (empty when it passed). */
  lifecycle?: { ran: boolean; problems: string[]; note: string };
  /** What building the requests found wrong with the description (invalid examples). */
  warnings?: DescriptionWarning[];
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

export async function runProbes(
  model: ServiceModel,
  op: Operation,
  variant: Variant,
  t: Transport,
): Promise<ProbeSet> {
  const appkey = t.config.appkey;
  const path = variant === 'preview' ? op.preview!.path : op.path;
  const key: KeyMode = variant === 'preview' ? 'none' : 'key';
  const probes: Probe[] = [];
  const send = async (
    role: Role,
    target: Operation,
    spec: RequestSpec,
    purpose: string,
    extra: Partial<Probe> & {
      keyMode?: KeyMode;
      method?: string;
      contentType?: string;
      path?: string;
    } = {},
  ) => {
    const req = serialise(target, spec, {
      path: extra.path ?? (target === op ? path : target.path),
      key: extra.keyMode ?? key,
      appkey,
      purpose,
      ...(extra.method ? { method: extra.method } : {}),
      ...(extra.contentType ? { contentType: extra.contentType } : {}),
    });
    const prefer = operationPreference(model, target);
    if (prefer !== undefined) req.headers['prefer'] = prefer;
    const exchange = await t.send(target, req);
    const probe: Probe = { role, op: target, exchange };
    if (extra.negative) probe.negative = extra.negative;
    if (extra.pageSize !== undefined) probe.pageSize = extra.pageSize;
    if (extra.uncertain) probe.uncertain = true;
    if (spec.unsatisfied && (role === 'valid' || role === 'paging'))
      probe.unsatisfied = spec.unsatisfied;
    if (extra.method) probe.method = extra.method;
    probes.push(probe);
    return probe;
  };

  let valid = validRequests(model, op);
  let uncertain = false;
  // A status operation of an async pair needs a task the target knows: submit one when allowed.
  if (op.async?.role === 'status' && variant === 'main') {
    const taskId = t.config.allowWrites ? await submitForTask(model, op, t, send) : undefined;
    const pathParam = op.parameters.find((p) => p.in === 'path');
    if (taskId !== undefined && pathParam)
      valid = valid.map((v) => ({ ...v, path: { ...v.path, [pathParam.name]: taskId } }));
    else uncertain = true;
  }
  for (const spec of valid) {
    const paging = pageSizeField(op, spec);
    const asked = paging
      ? Number(
          paging.loc === 'query'
            ? spec.query[paging.name]
            : (spec.body as Record<string, unknown>)[paging.name],
        )
      : NaN;
    await send('valid', op, spec, `valid request (${spec.name})`, {
      uncertain,
      ...(Number.isFinite(asked) ? { pageSize: asked } : {}),
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
  const warnings = variant === 'main' ? requestWarnings(model, op) : [];
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
  set.lifecycle = await lifecycle(model, op, probes, t, send);
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

function matches(template: string | undefined, path: string): boolean {
  if (!template) return false;
  const re = new RegExp(
    `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
  );
  return re.test(path);
}

type Send = (
  role: Role,
  target: Operation,
  spec: RequestSpec,
  purpose: string,
  extra?: Partial<Probe> & { keyMode?: KeyMode },
) => Promise<Probe>;

async function submitForTask(
  model: ServiceModel,
  op: Operation,
  t: Transport,
  send: Send,
): Promise<string | undefined> {
  const submit = findOperation(model, op.async!.partner);
  const spec = validRequests(model, submit)[0]!;
  const probe = await send('lifecycle', submit, spec, `submit a task (${submit.id})`, {
    keyMode: 'key',
  });
  const payload = readEnvelope(submit, probe.exchange.json).payload as Record<string, unknown>;
  const id = payload?.[op.async!.operationIdField];
  void t;
  return typeof id === 'string' ? id : undefined;
}

const RUNNING =
  /^(pending|queued|running|processing|submitted|in_?progress|accepted|started|waiting)$/i;

/** Submit -> poll -> result for async submits; file names echoed for uploads. */
async function lifecycle(
  model: ServiceModel,
  op: Operation,
  probes: Probe[],
  t: Transport,
  send: Send,
): Promise<ProbeSet['lifecycle']> {
  const problems: string[] = [];
  const submitted = probes.filter((p) => p.role === 'valid' && ok(p));
  if (op.async?.role === 'submit') {
    const status = findOperation(model, op.async.partner);
    const pathParam = status.parameters.find((p) => p.in === 'path');
    if (submitted.length === 0)
      return {
        ran: true,
        problems: ['no submit succeeded, so there is no task to poll'],
        note: '',
      };
    for (const sub of submitted.slice(0, 1)) {
      const payload = readEnvelope(op, sub.exchange.json).payload as
        Record<string, unknown> | undefined;
      const id = payload?.[op.async.operationIdField];
      if (typeof id !== 'string' || id === '') {
        problems.push(`submit answered without a task id in ${op.async.operationIdField}`);
        continue;
      }
      const base = validRequests(model, status)[0]!;
      const spec = pathParam ? { ...base, path: { ...base.path, [pathParam.name]: id } } : base;
      let final: Record<string, unknown> | undefined;
      const deadline = performance.now() + Math.max(5 * t.config.timeoutMs, 10_000);
      for (let attempt = 0; attempt < 20 && performance.now() < deadline; attempt++) {
        const poll = await send(
          'lifecycle',
          status,
          spec,
          `poll task (${status.id}) #${attempt + 1}`,
          {
            keyMode: 'key',
          },
        );
        if (!ok(poll)) {
          problems.push(
            `polling task ${id} answered HTTP ${poll.exchange.record.status ?? poll.exchange.record.error}`,
          );
          break;
        }
        const body = readEnvelope(status, poll.exchange.json).payload as
          Record<string, unknown> | undefined;
        if (
          body?.[op.async.operationIdField] !== undefined &&
          body[op.async.operationIdField] !== id
        )
          problems.push(
            `polled task ${id} but the answer is about ${String(body[op.async.operationIdField])}`,
          );
        const state = body?.[op.async.statusField];
        if (typeof state !== 'string' || !RUNNING.test(state)) {
          final = body;
          break;
        }
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** attempt, 2000)));
      }
      if (!final && problems.length === 0) problems.push(`task ${id} never reached a final state`);
    }
    return { ran: true, problems, note: `submit, poll ${status.id}, result` };
  }
  if (
    op.body?.kind === 'multipart' &&
    op.body.fileFields.length > 0 &&
    op.writes &&
    echoesFileNames(model, op)
  ) {
    for (const sub of submitted) {
      const payload = readEnvelope(op, sub.exchange.json).payload;
      const text = JSON.stringify(payload ?? null);
      const form = validFiles(model, op, sub);
      for (const name of form)
        if (!text.includes(JSON.stringify(name)))
          problems.push(`uploaded file ${JSON.stringify(name)} is not listed in the response`);
    }
    if (submitted.length === 0) problems.push('no upload succeeded');
    return { ran: true, problems, note: 'uploaded files listed in the answer' };
  }
  return {
    ran: false,
    problems,
    note: 'the operation has no asynchronous lifecycle, nor an upload whose answer declares file names',
  };
}

const FILE_NAME = /^(file_?name|filename|original_?(file_?)?name)$/i;

/**
 * Whether the success response declares a field for file names (`file_name`, `filename`): only then
 * is an upload expected to list what it received. Nothing else in a description promises an echo.
 */
export function echoesFileNames(model: ServiceModel, op: Operation): boolean {
  const seen = new Set<unknown>();
  const visit = (schema: JsonSchema | undefined, depth: number): boolean => {
    if (schema === undefined || depth > 6 || seen.has(schema)) return false;
    seen.add(schema);
    const { s, choices } = effective(model, schema);
    const props = (
      typeof s.properties === 'object' && s.properties !== null ? s.properties : {}
    ) as Record<string, JsonSchema>;
    for (const [name, sub] of Object.entries(props))
      if (FILE_NAME.test(name) || visit(sub, depth + 1)) return true;
    if (typeof s.items === 'object' && visit(s.items as JsonSchema, depth + 1)) return true;
    return choices.some((c) => c.options.some((o) => visit(o, depth + 1)));
  };
  return visit(op.envelope ? op.payloadSchema : op.success?.schema, 0);
}

function validFiles(model: ServiceModel, op: Operation, probe: Probe): string[] {
  const purpose = probe.exchange.record.request.purpose;
  const spec = validRequests(model, op).find((s) => purpose.includes(`(${s.name})`));
  const body = (spec?.body ?? {}) as Record<string, unknown>;
  const names: string[] = [];
  let n = 0;
  for (const field of op.body?.fileFields ?? []) {
    const v = body[field];
    for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
      const m = /^<binary content of (.+)>$/.exec(typeof item === 'string' ? item : '');
      names.push(m?.[1] ?? `document-${n + 1}.txt`);
      n++;
    }
  }
  return names;
}

export function ok(p: Probe): boolean {
  const s = p.exchange.record.status;
  return s !== undefined && s >= 200 && s < 300;
}
