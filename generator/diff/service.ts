/**
 * The service's own contract for one operation: preview variant, envelope, key transports,
 * business codes, rate limit, streaming and asynchronous pairing (facts the model holds and
 * generic OpenAPI diff tools do not know).
 */
import type { BusinessCodeGroup, KeyTransport, Operation } from '../../model/types.ts';
import { escapeToken } from '../../model/pointer.ts';
import { onTransport } from '../../model/locations.ts';
import type { DiffSide } from './side.ts';
import type { OperationEmit } from './pair.ts';
import type { RuleId } from './rules.ts';
import type { Side } from './types.ts';

export function compareService(
  base: DiffSide,
  head: DiffSide,
  b: Operation,
  h: Operation,
  emit: OperationEmit,
): void {
  comparePreview(b, h, emit);
  compareEnvelope(b, h, emit);
  compareAuth(b, h, emit);
  compareValues(b, h, emit);
  compareCodes(base, head, b, h, emit);
  if (b.streaming !== h.streaming)
    emit(
      'response-streaming-changed',
      'head',
      `${h.pointer}/responses`,
      `the success response ${h.streaming ? 'is now' : 'is no longer'} a server-sent event stream`,
    );
  if (b.async && !h.async)
    emit(
      'async-link-removed',
      'base',
      `${b.pointer}/x-dataapi-async`,
      `no longer paired with ${b.async.partner} (${b.async.role})`,
    );
}

const pathPointer = (path: string, method: string) => `/paths/${escapeToken(path)}/${method}`;

/** A preview variant that one side has and the other not: [rule, the side that has it, verb]. */
const PREVIEW_CHANGES: [RuleId, Side, string][] = [
  ['api-preview-removed', 'base', 'was removed'],
  ['api-preview-added', 'head', 'was added'],
];

function comparePreview(b: Operation, h: Operation, emit: OperationEmit): void {
  if (!b.preview === !h.preview) return;
  const [rule, side, verb] = PREVIEW_CHANGES[b.preview ? 0 : 1]!;
  const op = side === 'base' ? b : h;
  const preview = op.preview!;
  const at = preview.explicit
    ? pathPointer(preview.path, op.method)
    : `${op.pointer}/x-dataapi-preview`;
  emit(rule, side, at, `the preview variant ${op.method.toUpperCase()} ${preview.path} ${verb}`);
}

/**
 * Facts of an operation that are one value each: a change is `<what> <base> → <head>`, under a
 * rule that may depend on the direction. Absent on either side: nothing to compare.
 */
interface ValueFact {
  what: string;
  value(o: Operation): number | string | undefined;
  show(o: Operation): string;
  rule(b: number | string, h: number | string): RuleId;
  at(h: Operation): string;
}

const VALUE_FACTS: ValueFact[] = [
  {
    // The declared limit, compared as a rate (100 per minute is lower than 5 per second).
    what: 'rate limit',
    value: (o) => o.rateLimit.limit / o.rateLimit.windowMs,
    show: (o) => `${o.rateLimit.limit} per ${o.rateLimit.per}`,
    rule: (b, h) => (h < b ? 'rate-limit-lowered' : 'rate-limit-raised'),
    at: (h) =>
      h.rateLimit.source === 'operation'
        ? `${h.pointer}/x-dataapi-rate-limit`
        : '/x-dataapi-rate-limit',
  },
  {
    what: 'business code group',
    value: (o) => o.businessCodes,
    show: (o) => String(o.businessCodes),
    rule: () => 'business-code-group-changed',
    at: (h) => `${h.pointer}/x-dataapi-business-codes`,
  },
];

function compareValues(b: Operation, h: Operation, emit: OperationEmit): void {
  for (const fact of VALUE_FACTS) {
    const vb = fact.value(b);
    const vh = fact.value(h);
    if (vb === undefined || vh === undefined || vb === vh) continue;
    emit(fact.rule(vb, vh), 'head', fact.at(h), `${fact.what} ${fact.show(b)} → ${fact.show(h)}`);
  }
}

function compareEnvelope(b: Operation, h: Operation, emit: OperationEmit): void {
  const at = `${h.pointer}/x-dataapi-envelope`;
  if (b.envelope && h.envelope && b.envelope.spelling !== h.envelope.spelling) {
    emit(
      'envelope-spelling-changed',
      'head',
      at,
      `envelope ${b.envelope.statusKey}/${b.envelope.payloadKey} → ${h.envelope.statusKey}/${h.envelope.payloadKey}`,
    );
  } else if (b.envelope && !h.envelope) {
    emit(
      'envelope-removed',
      'head',
      at,
      `the ${b.envelope.statusKey}/${b.envelope.payloadKey} envelope was removed: the payload is the whole body`,
    );
  } else if (!b.envelope && h.envelope) {
    emit(
      'envelope-added',
      'head',
      at,
      `the body is now wrapped in ${h.envelope.statusKey}/${h.envelope.payloadKey}`,
    );
  }
}

const named = (t: { in: string; name: string }) => `${t.in} ${t.name}`;
const transportName = (t: KeyTransport) =>
  onTransport(t, {
    query: named,
    header: named,
    cookie: named,
    body: named,
    bearer: () => 'bearer token',
    basic: () => 'http basic',
  });

function compareAuth(b: Operation, h: Operation, emit: OperationEmit): void {
  const at = `${h.pointer}/security`;
  if (!b.auth.required && h.auth.required) {
    emit(
      'auth-became-required',
      'head',
      at,
      `now requires a key (${h.auth.transports.map(transportName).join(' or ')})`,
    );
    return;
  }
  if (b.auth.required && !h.auth.required) {
    emit('auth-became-optional', 'head', at, 'no longer requires a key');
    return;
  }
  if (!h.auth.required) return;
  const names = (o: Operation) => o.auth.transports.map(transportName);
  for (const name of names(b).filter((n) => !names(h).includes(n)))
    emit(
      'key-transport-removed',
      'base',
      `${b.pointer}/security`,
      `the key can no longer be sent as ${name}`,
    );
  for (const name of names(h).filter((n) => !names(b).includes(n)))
    emit('key-transport-added', 'head', at, `the key can now also be sent as ${name}`);
}

function compareCodes(
  base: DiffSide,
  head: DiffSide,
  b: Operation,
  h: Operation,
  emit: OperationEmit,
): void {
  // A group renamed is reported by compareValues; its codes are compared within one group.
  if (b.businessCodes === undefined || b.businessCodes !== h.businessCodes) return;
  const group = (side: DiffSide, name: string) =>
    side.model.businessCodeGroups.find((g) => g.name === name);
  const gb = group(base, b.businessCodes);
  const gh = group(head, h.businessCodes);
  if (!gb || !gh) return;
  const groupAt = (g: BusinessCodeGroup, code: number) => {
    const i = g.codes.findIndex((c) => c.code === code);
    return `/x-dataapi-business-code-groups/${escapeToken(g.name)}/codes/${i}`;
  };
  if (gb.successCode !== gh.successCode)
    emit(
      'business-code-outcome-changed',
      'head',
      `/x-dataapi-business-code-groups/${escapeToken(gh.name)}/success`,
      `group ${gh.name}: success code ${gb.successCode} → ${gh.successCode}`,
    );
  for (const code of gh.codes) {
    const old = gb.codes.find((c) => c.code === code.code);
    if (!old)
      emit(
        'business-code-added',
        'head',
        groupAt(gh, code.code),
        `group ${gh.name}: new code ${code.code} (${code.outcome})`,
      );
    else if (old.outcome !== code.outcome)
      emit(
        'business-code-outcome-changed',
        'head',
        groupAt(gh, code.code),
        `group ${gh.name}: code ${code.code} ${old.outcome} → ${code.outcome}`,
      );
  }
  for (const code of gb.codes)
    if (!gh.codes.some((c) => c.code === code.code))
      emit(
        'business-code-removed',
        'base',
        groupAt(gb, code.code),
        `group ${gb.name}: code ${code.code} (${code.outcome}) removed`,
      );
}
