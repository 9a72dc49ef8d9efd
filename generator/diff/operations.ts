/**
 * Walks the operations of both sides: pairs them by method and path (path parameter names do
 * not matter), and compares each pair's identity, service facts, request and responses. Each
 * change is reported once per operation, however many paths lead to it.
 */
import type { Operation } from '../../model/types.ts';
import type { RuleId } from './rules.ts';
import { findingOf } from '../../model/finding.ts';
import { compareService } from './service.ts';
import { compareBody, compareParameters } from './request.ts';
import { compareResponses } from './response.ts';
import { lineOf, type DiffSide } from './side.ts';
import type { OperationEmit, OperationPair } from './pair.ts';
import { compareSchemas } from './schemas.ts';
import type { Change, Side } from './types.ts';
import type { Direction, SchemaContext } from './walk-context.ts';

export type { OperationEmit, OperationPair } from './pair.ts';

const routeKey = (op: Operation) => `${op.path.replace(/\{[^}]*\}/g, '{}')} ${op.method}`;
const nameOf = (op: Operation) => op.operationId ?? op.id;
const title = (op: Operation) => `${op.method.toUpperCase()} ${op.path}`;

export function compareOperations(
  base: DiffSide,
  head: DiffSide,
  dirty: Set<string>,
  record: (change: Change) => void,
  today: string,
): void {
  const bm = new Map(base.model.operations.map((o) => [routeKey(o), o]));
  const hm = new Map(head.model.operations.map((o) => [routeKey(o), o]));
  const keys = [...new Set([...bm.keys(), ...hm.keys()])].sort();
  for (const key of keys) {
    const b = bm.get(key);
    const h = hm.get(key);
    const op = (h ?? b) as Operation;
    const emit = emitter(base, head, op, record, b && h ? b : undefined);
    if (b && !h) {
      emitRemoval(b, emit, today);
    } else if (!b && h) {
      emit('api-operation-added', 'head', h.pointer, `${title(h)} (${nameOf(h)}) was added`);
    } else if (b && h) {
      const seen = new Set<string>();
      const schemas = (dir: Direction): SchemaContext => ({
        dir,
        base: base.space,
        head: head.space,
        dirty,
        emit,
        seen,
        compare: compareSchemas,
      });
      compareOperation({ base, head, b, h, emit, schemas });
    }
  }
}

function compareOperation(pair: OperationPair): void {
  const { b, h, emit } = pair;
  if (b.id !== h.id || b.operationId !== h.operationId) {
    emit(
      'api-operation-id-changed',
      'head',
      `${h.pointer}/operationId`,
      `operationId ${nameOf(b)} → ${nameOf(h)} (the client method ${b.id} becomes ${h.id})`,
    );
  }
  if (!b.deprecated && h.deprecated)
    emit(
      'api-operation-deprecated',
      'head',
      `${h.pointer}/deprecated`,
      `${title(h)} is now deprecated${lifecycleOf(h)}`,
    );
  for (const key of ['summary', 'description'] as const) {
    if ((b[key] ?? '') !== (h[key] ?? ''))
      emit('api-operation-text-changed', 'head', `${h.pointer}/${key}`, `${key} changed`);
  }
  compareService(pair.base, pair.head, b, h, emit);
  compareParameters(pair);
  compareBody(pair);
  compareResponses(pair);
}

/** ` (sunset 2027-06-30; successor listNewsV2)`, or nothing. */
function lifecycleOf(op: Operation): string {
  const d = op.deprecation;
  const parts = [
    ...(d?.sunset !== undefined ? [`sunset ${d.sunset}`] : []),
    ...(d?.successor !== undefined ? [`successor ${d.successor}`] : []),
  ];
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/**
 * A removal is breaking unless BASE deprecated the operation with a sunset day that has come:
 * callers were told (on the wire and in the client) that it goes away from that day.
 */
function emitRemoval(b: Operation, emit: OperationEmit, today: string): void {
  const removed = `${title(b)} (${nameOf(b)}) was removed`;
  const sunset = b.deprecated ? b.deprecation?.sunset : undefined;
  if (sunset === undefined) emit('api-operation-removed', 'base', b.pointer, removed);
  else if (sunset > today)
    emit(
      'api-removed-before-sunset',
      'base',
      `${b.pointer}/x-dataapi-sunset`,
      `${removed} before its sunset ${sunset} (today is ${today}): callers were promised it until then`,
    );
  else
    emit(
      'api-removed-after-sunset',
      'base',
      `${b.pointer}/x-dataapi-sunset`,
      `${removed}, deprecated with sunset ${sunset}${b.deprecation?.successor !== undefined ? `; its successor is ${b.deprecation.successor}` : ''}`,
    );
}

/** Reports the changes of one operation, each (rule, place) once. */
function emitter(
  base: DiffSide,
  head: DiffSide,
  op: Operation,
  record: (c: Change) => void,
  before?: Operation,
): OperationEmit {
  // A renamed operation is known by both names: `--allow RULE:OLD` and `RULE:NEW` both match.
  const previous =
    before !== undefined && nameOf(before) !== nameOf(op) ? nameOf(before) : undefined;
  const seen = new Set<string>();
  return (rule, side, pointer, message) => {
    const key = `${rule}\u0000${side}\u0000${pointer ?? message}`;
    if (seen.has(key)) return;
    seen.add(key);
    const at = pointer ?? op.pointer;
    const line = lineOf(side === 'base' ? base : head, at);
    // The catalogue decides the severity (breaking, warning or compatible).
    record(
      findingOf({
        code: rule,
        message,
        operation: nameOf(op),
        ...(previous !== undefined ? { previousOperation: previous } : {}),
        method: op.method.toUpperCase(),
        path: op.path,
        pointer: at,
        side,
        ...(line !== undefined ? { line } : {}),
      }) as Change,
    );
  };
}
