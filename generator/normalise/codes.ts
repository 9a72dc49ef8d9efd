/** Business status code groups (`x-dataapi-business-code-groups`, docs/service.md §5). */
import type { BusinessCode, BusinessCodeGroup, Outcome } from '../../model/types.ts';
import { isObject, type Obj } from '../../model/object.ts';
import type { Problems } from './problems.ts';

export const OUTCOMES: readonly Outcome[] = [
  'ok',
  'invalid_parameters',
  'rate_limited',
  'in_arrears',
  'wrong_key',
  'key_expired',
  'quota_exceeded',
  'service_error',
];

/** Which outcomes answer which HTTP error, in order of preference. */
const HTTP_OUTCOMES: Record<string, Outcome[]> = {
  '200': ['ok'],
  '400': ['invalid_parameters'],
  '401': ['wrong_key'],
  '403': ['key_expired', 'in_arrears', 'quota_exceeded'],
  '404': ['invalid_parameters'],
  '405': ['invalid_parameters'],
  '413': ['invalid_parameters'],
  '415': ['invalid_parameters'],
  '429': ['rate_limited', 'quota_exceeded'],
  '500': ['service_error'],
  '502': ['service_error'],
};

export function readCodeGroups(document: Obj, problems: Problems): BusinessCodeGroup[] {
  const raw = document['x-dataapi-business-code-groups'];
  if (raw === undefined) return [];
  if (!isObject(raw)) {
    problems.add(
      'spec-extension',
      '/x-dataapi-business-code-groups',
      'must be a map of group name to group',
    );
    return [];
  }
  const groups: BusinessCodeGroup[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const at = `/x-dataapi-business-code-groups/${name}`;
    if (!isObject(value) || !Array.isArray(value['codes'])) {
      problems.add('spec-extension', at, 'a group needs `success` (integer) and `codes` (list)');
      continue;
    }
    const codes: BusinessCode[] = [];
    value['codes'].forEach((c: unknown, i: number) => {
      const outcome = isObject(c) ? c['outcome'] : undefined;
      if (
        !isObject(c) ||
        !Number.isInteger(c['code']) ||
        typeof c['meaning'] !== 'string' ||
        !OUTCOMES.includes(outcome as Outcome)
      ) {
        problems.add(
          'spec-extension',
          `${at}/codes/${i}`,
          `a code needs an integer \`code\`, a \`meaning\` and an \`outcome\` (one of ${OUTCOMES.join(', ')})`,
        );
        return;
      }
      codes.push({
        code: c['code'] as number,
        meaning: c['meaning'] as string,
        outcome: outcome as Outcome,
        ...(typeof c['remark'] === 'string' ? { remark: c['remark'] } : {}),
      });
    });
    const success = value['success'];
    if (
      !Number.isInteger(success) ||
      !codes.some((c) => c.code === success && c.outcome === 'ok')
    ) {
      problems.add(
        'spec-extension',
        `${at}/success`,
        'must be the integer code of one of the group\'s codes with outcome "ok"',
      );
      continue;
    }
    const byHttpStatus: Record<string, number> = {};
    for (const [status, outcomes] of Object.entries(HTTP_OUTCOMES)) {
      for (const outcome of outcomes) {
        const code = codes.find((c) => c.outcome === outcome);
        if (code) {
          byHttpStatus[status] = code.code;
          break;
        }
      }
    }
    groups.push({
      name,
      description: typeof value['description'] === 'string' ? value['description'] : '',
      successCode: success as number,
      codes,
      byHttpStatus,
    });
  }
  return groups;
}
