/**
 * The life cycle of a deprecated operation: `x-dataapi-deprecated-since` and `x-dataapi-sunset`
 * (calendar days, `YYYY-MM-DD`) and `x-dataapi-successor` (an operationId), read once ids are
 * allocated so the successor is named by its model id. A malformed value is a problem (generate
 * stops, lint reports it); a sunset already past is lint's business, as it depends on the day.
 */
import type { Deprecation, Operation } from '../../model/types.ts';
import { isCalendarDay } from '../../model/lifecycle.ts';
import type { Obj } from '../../model/object.ts';
import type { Problems } from './problems.ts';

export const LIFECYCLE_EXTENSIONS = [
  'x-dataapi-deprecated-since',
  'x-dataapi-sunset',
  'x-dataapi-successor',
] as const;

export function readDeprecations(
  drafts: { op: Operation; raw: Obj }[],
  operations: Operation[],
  problems: Problems,
): void {
  for (const { op, raw } of drafts) {
    const present = LIFECYCLE_EXTENSIONS.filter((k) => raw[k] !== undefined);
    if (!op.deprecated) {
      for (const k of present)
        problems.add(
          k === 'x-dataapi-successor' ? 'deprecation-successor' : 'deprecation-sunset',
          `${op.pointer}/${k}`,
          `${k} is only read on a deprecated operation: add deprecated: true or remove it`,
        );
      continue;
    }
    const deprecation: Deprecation = {};
    const since = day(raw, 'x-dataapi-deprecated-since', op.pointer, problems);
    const sunset = day(raw, 'x-dataapi-sunset', op.pointer, problems);
    if (since !== undefined) deprecation.since = since;
    if (sunset !== undefined) deprecation.sunset = sunset;
    if (since !== undefined && sunset !== undefined && sunset <= since)
      problems.add(
        'deprecation-sunset',
        `${op.pointer}/x-dataapi-sunset`,
        `the sunset (${sunset}) must come after the deprecation (${since})`,
      );
    const successor = raw['x-dataapi-successor'];
    if (successor !== undefined) {
      const target = operations.find((o) => o.operationId === successor);
      if (typeof successor !== 'string' || !target || target === op)
        problems.add(
          'deprecation-successor',
          `${op.pointer}/x-dataapi-successor`,
          typeof successor === 'string' && target === op
            ? 'an operation cannot be its own successor'
            : `must be the operationId of another operation; no operation has operationId ${JSON.stringify(successor)}`,
        );
      else deprecation.successor = target.id;
    }
    op.deprecation = deprecation;
  }
}

function day(raw: Obj, key: string, pointer: string, problems: Problems): string | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  // The YAML 1.2 core schema the loader uses reads an unquoted 2027-01-31 as a string.
  if (typeof value === 'string' && isCalendarDay(value)) return value;
  problems.add(
    'deprecation-sunset',
    `${pointer}/${key}`,
    `must be a calendar day YYYY-MM-DD (UTC), e.g. 2027-01-31; got ${JSON.stringify(value)}`,
  );
  return undefined;
}
