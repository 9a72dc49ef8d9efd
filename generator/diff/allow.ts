/**
 * Accepting a change on purpose: `--allow RULE[:operationId]` on the command line, or
 * `x-dataapi-allow-breaking` in the HEAD description (at the root, with an optional `operation`,
 * or on the operation itself), each entry with a required `reason`:
 *
 *   x-dataapi-allow-breaking:
 *     - rule: api-operation-id-changed
 *       operation: getAirQuality
 *       reason: renamed before the first client release
 */
import type { Problem } from '../normalise/problems.ts';
import { METHODS } from '../normalise/index.ts';
import { isObject as isObj, type Obj } from '../../model/object.ts';
import { joinPointer } from '../../model/pointer.ts';
import { isRuleId } from './rules.ts';
import type { Change, UnusedAllowance } from './types.ts';

export const ALLOW_EXTENSION = 'x-dataapi-allow-breaking';

export interface Allowance {
  rule: string;
  operation?: string;
  reason?: string;
  by: 'flag' | 'extension';
  pointer?: string;
}

/** Parses `RULE` or `RULE:operationId`; throws with a message a user can act on. */
export function parseAllowFlag(value: string): Allowance {
  const colon = value.indexOf(':');
  const rule = colon === -1 ? value : value.slice(0, colon);
  const operation = colon === -1 ? undefined : value.slice(colon + 1);
  if (!isRuleId(rule))
    throw new Error(
      `--allow ${value}: unknown rule ${JSON.stringify(rule)} (see dataapi diff --help)`,
    );
  if (operation === '') throw new Error(`--allow ${value}: the operationId after ":" is empty`);
  return { rule, ...(operation !== undefined ? { operation } : {}), by: 'flag' };
}

/** The extension's entries in a document, and what is wrong with them (for lint and diff). */
export function readAllowExtension(doc: Obj): { allowances: Allowance[]; problems: Problem[] } {
  const allowances: Allowance[] = [];
  const problems: Problem[] = [];
  const read = (value: unknown, at: string, operation: string | undefined) => {
    if (value === undefined) return;
    if (!Array.isArray(value)) {
      problems.push({
        code: 'spec-extension',
        pointer: at,
        message: `${ALLOW_EXTENSION} must be a list of { rule, reason${operation === undefined ? ', operation?' : ''} }`,
      });
      return;
    }
    value.forEach((entry, i) => {
      const pointer = `${at}/${i}`;
      const rule = isObj(entry) ? entry['rule'] : undefined;
      const reason = isObj(entry) ? entry['reason'] : undefined;
      const op = isObj(entry) ? entry['operation'] : undefined;
      if (typeof rule !== 'string' || !isRuleId(rule)) {
        problems.push({
          code: 'spec-extension',
          pointer: `${pointer}/rule`,
          message: `rule must be a dataapi diff rule id, not ${JSON.stringify(rule ?? null)}`,
        });
        return;
      }
      if (typeof reason !== 'string' || reason.trim() === '') {
        problems.push({
          code: 'spec-extension',
          pointer: `${pointer}/reason`,
          message: `accepting ${rule} needs a reason (a non-empty string)`,
        });
        return;
      }
      if (op !== undefined && (typeof op !== 'string' || operation !== undefined)) {
        problems.push({
          code: 'spec-extension',
          pointer: `${pointer}/operation`,
          message:
            operation !== undefined
              ? 'operation is implied on an operation: leave it out'
              : 'operation must be an operationId',
        });
        return;
      }
      const target = operation ?? (op as string | undefined);
      allowances.push({
        rule,
        ...(target !== undefined ? { operation: target } : {}),
        reason,
        by: 'extension',
        pointer,
      });
    });
  };
  read(doc[ALLOW_EXTENSION], `/${ALLOW_EXTENSION}`, undefined);
  const paths = isObj(doc['paths']) ? doc['paths'] : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op) || op[ALLOW_EXTENSION] === undefined) continue;
      const name =
        typeof op['operationId'] === 'string'
          ? op['operationId']
          : `${method.toUpperCase()} ${path}`;
      read(op[ALLOW_EXTENSION], `${joinPointer('paths', path, method)}/${ALLOW_EXTENSION}`, name);
    }
  }
  return { allowances, problems };
}

/** Marks the changes each allowance covers; returns the allowances that covered nothing. */
export function applyAllowances(changes: Change[], allowances: Allowance[]): UnusedAllowance[] {
  const used = new Set<Allowance>();
  for (const change of changes) {
    const match = allowances.find(
      (a) =>
        a.rule === change.code &&
        (a.operation === undefined ||
          a.operation === change.operation ||
          a.operation === change.previousOperation ||
          a.operation === `${change.method} ${change.path}`),
    );
    if (!match) continue;
    used.add(match);
    change.allowed = {
      by: match.by,
      ...(match.reason !== undefined ? { reason: match.reason } : {}),
    };
  }
  return allowances
    .filter((a) => !used.has(a))
    .map((a) => ({
      rule: a.rule,
      by: a.by,
      ...(a.operation ? { operation: a.operation } : {}),
      ...(a.pointer ? { pointer: a.pointer } : {}),
    }));
}
