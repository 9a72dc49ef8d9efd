/** The questions every layer asks of the model: which operation, which code group, which outcome. */
import type { BusinessCodeGroup, Operation, Outcome, ServiceModel } from './types.ts';

export function findOperation(model: ServiceModel, id: string): Operation {
  const op = model.operations.find((o) => o.id === id);
  if (!op) throw new Error(`unknown operation ${JSON.stringify(id)}`);
  return op;
}

export function codeGroupOf(model: ServiceModel, op: Operation): BusinessCodeGroup | undefined {
  return op.businessCodes === undefined
    ? undefined
    : model.businessCodeGroups.find((g) => g.name === op.businessCodes);
}

/** The canonical outcome of a business code in the operation's group ('ok' when it is the success code). */
export function outcomeOf(
  model: ServiceModel,
  op: Operation,
  code: number | undefined,
): { outcome?: Outcome; meaning?: string } {
  const group = codeGroupOf(model, op);
  if (!group || code === undefined) return {};
  const entry = group.codes.find((c) => c.code === code);
  return entry ? { outcome: entry.outcome, meaning: entry.meaning } : {};
}
