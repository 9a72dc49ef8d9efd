/**
 * Each check's judge, by name (the checks themselves are in definitions.ts): a check without a
 * judge, or a judge that does not exist, does not compile.
 */
import { BEHAVIOUR_JUDGES } from './behaviour.ts';
import { CHECK_DEFINITIONS, type CheckInfo, type CheckName } from './definitions.ts';
import { deprecation } from './deprecation.ts';
import type { Judge } from './judge.ts';
import { RESPONSE_JUDGES } from './response.ts';

export * from './definitions.ts';

export interface CheckDefinition extends CheckInfo {
  judge: Judge;
}

const JUDGES: Record<CheckName, Judge> = {
  status: RESPONSE_JUDGES.status,
  'content-type': RESPONSE_JUDGES['content-type'],
  envelope: RESPONSE_JUDGES.envelope,
  'business-code': RESPONSE_JUDGES['business-code'],
  schema: RESPONSE_JUDGES.schema,
  paging: RESPONSE_JUDGES.paging,
  auth: BEHAVIOUR_JUDGES.auth,
  negative: BEHAVIOUR_JUDGES.negative,
  'method-path': BEHAVIOUR_JUDGES['method-path'],
  lifecycle: BEHAVIOUR_JUDGES.lifecycle,
  headers: RESPONSE_JUDGES.headers,
  deprecation: deprecation,
  'response-time': BEHAVIOUR_JUDGES['response-time'],
  'server-errors': BEHAVIOUR_JUDGES['server-errors'],
};

/** Every check with its judge, in CHECKS order. */
export const JUDGED_CHECKS: readonly CheckDefinition[] = CHECK_DEFINITIONS.map((d) => ({
  ...d,
  judge: JUDGES[d.name],
}));

const byName = new Map<string, CheckDefinition>(JUDGED_CHECKS.map((d) => [d.name, d]));

/** The definition of a check, with its judge. */
export function checkDefinition(name: CheckName): CheckDefinition {
  return byName.get(name)!;
}
