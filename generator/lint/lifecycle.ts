/**
 * Lint's rules on a deprecated operation's life cycle. The normaliser already refuses malformed
 * values (they reach lint as problems carrying their own rule ids); what only lint can say is
 * that a sunset has come while the operation is still described (still served).
 */
import type { ServiceModel } from '../../model/service-model.ts';
import type { Add } from './types.ts';

/** A live operation whose sunset is today or past: remove it, or move the sunset. */
export function checkSunsets(model: ServiceModel, today: string, add: Add): void {
  for (const op of model.operations) {
    const sunset = op.deprecation?.sunset;
    if (sunset === undefined || sunset > today) continue;
    add({
      code: 'deprecation-sunset',
      pointer: `${op.pointer}/x-dataapi-sunset`,
      operation: op.operationId ?? `${op.method.toUpperCase()} ${op.path}`,
      message: `its sunset ${sunset} has come (today is ${today}) but the operation is still described: remove it (dataapi diff then reports api-removed-after-sunset) or move the sunset`,
    });
  }
}
