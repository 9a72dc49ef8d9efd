/**
 * Stateful sequences: the links of a successful answer followed (OpenAPI `links`, and the link an
 * asynchronous submit derives from `x-dataapi-async`). A follow-up must be answered with success
 * (what the source answered with exists); a follow-up to an asynchronous status operation is
 * polled until its task reaches a final state; an upload whose answer declares file names must
 * list the files sent, on the first request and on a follow-up that sends them again.
 */
import {
  declaredResponse,
  type JsonSchema,
  type Operation,
  type ResponseLink,
  type ServiceModel,
} from 'dataapi/model';
import { findOperation, readEnvelope } from 'dataapi/runtime/shared';
import { effective } from 'dataapi/runtime/sampler';
import {
  followUp,
  linkInto,
  linksOf,
  misfits,
  reachable,
  responseBodyTokens,
  type LinkSource,
} from './links.ts';
import type { DescriptionWarning } from './warnings.ts';
import { ok, type Probe, type ProbeSet, type Role } from './probe.ts';
import { emptyRequest, validRequests, type KeyMode, type RequestSpec } from './requests.ts';
import type { Transport } from './http.ts';

export type Send = (
  role: Role,
  target: Operation,
  spec: RequestSpec,
  purpose: string,
  extra?: Partial<Probe> & { keyMode?: KeyMode },
) => Promise<Probe>;

type Lifecycle = NonNullable<ProbeSet['lifecycle']> & { warnings?: DescriptionWarning[] };

/** A link whose values the target's own parameter schemas refuse: the description's fault. */
function mismatch(
  source: Operation,
  link: ResponseLink,
  target: Operation,
  bad: string[],
): DescriptionWarning {
  return {
    code: 'link-value-mismatch',
    message: `link ${link.name} gives ${target.id} values its parameters refuse: ${bad.join('; ')}; the link is not followed`,
    pointer: link.pointer,
    operation: source.id,
  };
}

/** The source of a probe's link expressions: its request and answer. */
export function linkSource(p: Probe): LinkSource {
  return {
    spec: p.spec ?? emptyRequest(''),
    method: p.exchange.record.request.method,
    url: p.exchange.record.request.url,
    exchange: p.exchange,
  };
}

/**
 * Path values for an operation that a link of another one leads to (a task id from its submit):
 * the source's valid request is sent and the link's expressions read from its answer.
 */
export async function pathFromLink(
  model: ServiceModel,
  op: Operation,
  t: Transport,
  send: Send,
): Promise<{ path?: Record<string, unknown>; warning?: DescriptionWarning }> {
  const into = linkInto(model, op);
  if (!into || (into.source.writes && !t.config.allowWrites)) return {};
  const spec = validRequests(model, into.source)[0]!;
  const probe = await send(
    'lifecycle',
    into.source,
    spec,
    `${into.source.id} for a value of ${op.id}`,
    {
      keyMode: 'key',
    },
  );
  if (!ok(probe)) return {};
  const { spec: next, missing } = followUp(into.link, linkSource(probe), emptyRequest(''));
  if (missing.length > 0 || Object.keys(next.path).length === 0) return {};
  const bad = misfits(model, into.link, op, next);
  if (bad.length > 0) return { warning: mismatch(into.source, into.link, op, bad) };
  return { path: next.path };
}

const RUNNING =
  /^(pending|queued|running|processing|submitted|in_?progress|accepted|started|waiting)$/i;

/** Follows the links of the first successful valid request; checks upload echoes. */
export async function sequences(
  model: ServiceModel,
  op: Operation,
  probes: Probe[],
  t: Transport,
  send: Send,
): Promise<Lifecycle> {
  const problems: string[] = [];
  const notes: string[] = [];
  const warnings: DescriptionWarning[] = [];
  const succeeded = probes.filter((p) => p.role === 'valid' && ok(p));
  const echoes = uploadsEchoed(model, op);
  if (echoes) {
    for (const p of succeeded) problems.push(...missingFiles(op, p));
    if (succeeded.length === 0) problems.push('no upload succeeded');
    notes.push('uploaded files listed in the answer');
  }
  const declared = op.responses.some((r) => (r.links ?? []).length > 0);
  const first = succeeded[0];
  // Every valid request built from a schema no value satisfies (AssemblyAI: allOf parts each
  // closed with additionalProperties false): the description's doing, as the status check says.
  const valid = probes.filter((p) => p.role === 'valid');
  const unsatisfied = valid.every((p) => p.unsatisfied) ? valid[0]?.unsatisfied : undefined;
  if (declared && !first && unsatisfied)
    warnings.push({
      code: 'unsatisfiable-schema',
      message: `no link is followed: the request schema admits no value the sampler can find (${unsatisfied.why}), so no valid request succeeded`,
      pointer: unsatisfied.pointer,
      operation: op.id,
    });
  else if (declared && !first)
    problems.push('no valid request succeeded, so there is no answer to follow a link from');
  for (const link of first ? linksOf(op, first.exchange.record.status) : []) {
    const target = findOperation(model, link.target);
    if (target.writes && !t.config.allowWrites) {
      notes.push(`link ${link.name} not followed (${target.id} writes: --allow-writes)`);
      continue;
    }
    const base = validRequests(model, target)[0]!;
    const { spec, missing } = followUp(link, linkSource(first!), base);
    if (missing.length > 0) {
      // Where the response schema rules the value out, the description's link is wrong.
      const schema = declaredResponse(op, first!.exchange.record.status!)?.schema;
      const impossible = missing.filter((e) => {
        const tokens = responseBodyTokens(e);
        return tokens !== undefined && !reachable(model, schema, tokens);
      });
      if (impossible.length === missing.length) {
        warnings.push({
          code: 'link-expression-unresolvable',
          message: `link ${link.name} reads ${missing.join(', ')}, which the response schema cannot hold; the link is not followed`,
          pointer: link.pointer,
          operation: op.id,
        });
        notes.push(
          `link ${link.name} not followed (its expressions do not fit the answer's schema)`,
        );
      } else problems.push(`link ${link.name}: the answer has no value for ${missing.join(', ')}`);
      continue;
    }
    const bad = misfits(model, link, target, spec);
    if (bad.length > 0) {
      warnings.push(mismatch(op, link, target, bad));
      notes.push(`link ${link.name} not followed (its values do not fit ${target.id})`);
      continue;
    }
    notes.push(`link ${link.name} -> ${target.id}`);
    if (target.async?.role === 'status')
      problems.push(...(await poll(target, spec, link.name, t, send)));
    else {
      const next = await send('lifecycle', target, spec, `link ${link.name} -> ${target.id}`, {
        keyMode: 'key',
      });
      if (!ok(next))
        problems.push(
          `link ${link.name}: ${target.id} answered ${answer(next)} for what the answer named`,
        );
      else if (uploadsEchoed(model, target)) problems.push(...missingFiles(target, next));
    }
  }
  const found = warnings.length > 0 ? { warnings } : {};
  if (!echoes && !declared)
    return {
      ran: false,
      problems,
      note: 'the operation has no links (nor an upload whose answer declares file names)',
      ...found,
    };
  return { ran: true, problems, note: notes.join('; '), ...found };
}

/** Polls an asynchronous status operation until its task leaves the running states. */
async function poll(
  status: Operation,
  spec: RequestSpec,
  name: string,
  t: Transport,
  send: Send,
): Promise<string[]> {
  const a = status.async!;
  const id = Object.values(spec.path)[0];
  const deadline = performance.now() + Math.max(5 * t.config.timeoutMs, 10_000);
  for (let attempt = 0; attempt < 20 && performance.now() < deadline; attempt++) {
    const p = await send('lifecycle', status, spec, `poll task (${status.id}) #${attempt + 1}`, {
      keyMode: 'key',
    });
    if (!ok(p)) return [`link ${name}: polling task ${String(id)} answered ${answer(p)}`];
    const body = readEnvelope(status, p.exchange.json).payload as
      Record<string, unknown> | undefined;
    const about = body?.[a.operationIdField];
    if (about !== undefined && about !== id)
      return [`polled task ${String(id)} but the answer is about ${String(about)}`];
    const state = body?.[a.statusField];
    if (typeof state !== 'string' || !RUNNING.test(state)) return [];
    await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** attempt, 2000)));
  }
  return [`task ${String(id)} never reached a final state`];
}

function answer(p: Probe): string {
  return p.exchange.record.status !== undefined
    ? `HTTP ${p.exchange.record.status}`
    : (p.exchange.record.error ?? 'nothing');
}

const FILE_NAME = /^(file_?name|filename|original_?(file_?)?name)$/i;

/**
 * An upload of the service's own (its answer in the service's envelope) that writes and whose
 * answer declares a field for file names (`file_name`). The service lists what it received; an
 * upload of another description that answers with `filename` promises no such echo (it may name
 * the file it stored, or one of its own choosing).
 */
function uploadsEchoed(model: ServiceModel, op: Operation): boolean {
  return (
    op.envelope !== undefined &&
    op.body?.kind === 'multipart' &&
    op.body.fileFields.length > 0 &&
    op.writes &&
    echoesFileNames(model, op)
  );
}

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

/** The file names a successful upload sent that its answer does not list. */
function missingFiles(op: Operation, p: Probe): string[] {
  const text = JSON.stringify(readEnvelope(op, p.exchange.json).payload ?? null);
  return fileNames(op, p.spec)
    .filter((name) => !text.includes(JSON.stringify(name)))
    .map((name) => `uploaded file ${JSON.stringify(name)} is not listed in the response`);
}

/** The names the files of a request are sent under (see requests.ts fileFromExample). */
export function fileNames(op: Operation, spec: RequestSpec | undefined): string[] {
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
