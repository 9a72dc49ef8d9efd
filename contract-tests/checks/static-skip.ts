/**
 * Skips known before any request: the operation or the run's options say the check has nothing to
 * judge. The judges start with these, and the suite registers such a check as a skipped vitest test
 * carrying its result, so it costs no test run (GitHub's 1,223 operations: 3,669 of 17,122 tests).
 */
import type { NotTestedCode, Operation, ServiceModel } from 'dataapi/model';
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

/**
 * Whether the run lacks the credentials a secured operation's main variant needs: without them
 * only its refusal of no key and a wrong key is tested (the auth check); the rest is not tested.
 */
export const lacksCredentials = (op: Operation, variant: Variant, config: ContractConfig) =>
  variant === 'main' && config.appkey === '' && op.auth.required && op.auth.transports.length > 0;

/** What the run lacks to test this check of this variant at all, known before any request. */
export function notTestedBefore(
  check: string,
  op: Operation,
  variant: Variant,
  config: ContractConfig,
): { code: NotTestedCode; reason: string } | undefined {
  if (op.writes && !config.allowWrites)
    return {
      code: 'writes-not-allowed',
      reason: 'the operation writes: run with --allow-writes',
    };
  if (check !== 'auth' && lacksCredentials(op, variant, config))
    return {
      code: 'no-credentials',
      reason: 'the operation needs a credential and none was given (DATAAPI_APPKEY)',
    };
  return undefined;
}

/** The result such a check gives, field for field (and in order) as runCheck's own skip. */
export function staticSkipResult<C extends string>(
  operation: string,
  variant: Variant,
  check: C,
  message: string,
  notTested?: NotTestedCode,
) {
  const base = { operation, variant, check, durationMs: 0, waitedMs: 0, exchanges: [] };
  return {
    ...base,
    status: 'skipped' as const,
    message: notTested ? `not tested (${notTested}): ${message}` : message,
    ...(notTested ? { notTested } : {}),
    errors: [] as never[],
  };
}
