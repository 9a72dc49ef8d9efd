/** The questions every layer asks of the model: which operation, which code group, which outcome. */
import type { BusinessCodeGroup, Operation, Outcome, Response, ServiceModel } from './types.ts';

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

/**
 * The response an operation declares for a status: the exact key, else its range (`4XX`), else
 * `default`. The one matcher: the checks judge by it and coverage counts by it.
 */
export function declaredResponse(op: Operation, status: number): Response | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    op.responses.find((r) => r.status === exact) ??
    op.responses.find((r) => r.status.toUpperCase() === range) ??
    op.responses.find((r) => r.status === 'default')
  );
}
