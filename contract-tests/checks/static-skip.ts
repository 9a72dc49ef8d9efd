/**
 * Skips known before any request: the operation or the run's options say the check has nothing to
 * judge. The judges start with these, and the suite registers such a check as a skipped vitest test
 * carrying its result, so it costs no test run (GitHub's 1,223 operations: 3,669 of 17,122 tests).
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { codeGroupOf } from 'dataapi/runtime/shared';
import type { ContractConfig } from '../config.ts';
import type { Variant } from '../exchange.ts';

type Reason = (model: ServiceModel, op: Operation, config: ContractConfig) => string | undefined;

// Check names as strings: registry.ts (and results.ts, through it) import the judges that use this.
export const STATIC_SKIPS: Readonly<Record<string, Reason>> = {
  envelope: (_m, op) => (op.envelope ? undefined : 'plain JSON operation (no envelope)'),
  'business-code': (model, op) =>
    codeGroupOf(model, op) && op.envelope ? undefined : 'the operation has no business code group',
  'response-time': (_m, _op, config) =>
    config.maxResponseTimeMs === undefined ? 'no --max-response-time given' : undefined,
};

/** Why the check has nothing to judge on this operation in this run, when that is known now. */
export function staticSkip(
  check: string,
  model: ServiceModel,
  op: Operation,
  config: ContractConfig,
): string | undefined {
  return Object.hasOwn(STATIC_SKIPS, check) ? STATIC_SKIPS[check]!(model, op, config) : undefined;
}

/** The result such a check gives, field for field (and in order) as runCheck's own skip. */
export function staticSkipResult<C extends string>(
  operation: string,
  variant: Variant,
  check: C,
  message: string,
) {
  const base = { operation, variant, check, durationMs: 0, waitedMs: 0, exchanges: [] };
  return { ...base, status: 'skipped' as const, message, errors: [] as never[] };
}
