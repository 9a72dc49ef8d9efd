/**
 * Response examples that do not match their schemas, apart from the requests (requests.ts): the
 * runner works them out for its workers without loading the sampler.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { describeErrors, validatorFor } from 'dataapi/runtime/shared';
import { pointerOf, type DescriptionWarning } from './warnings.ts';

/**
 * Response examples that do not match their schemas (a mock answers a schema sample instead). A
 * worker in the runner's process has the runner work them out (scheduler-channel.ts), where the
 * embedded mock has compiled the same schemas with the same Ajv: compiled once, not per thread.
 */
export function responseExampleWarnings(model: ServiceModel, op: Operation): DescriptionWarning[] {
  const out: DescriptionWarning[] = [];
  for (const r of op.responses) {
    if (r.schema === undefined || r.kind !== 'json' || r.examples.length === 0) continue;
    const check = validatorFor(model).compile(r.schema);
    for (const ex of r.examples)
      if (!check(ex.value))
        out.push({
          code: 'example-invalid',
          operation: op.id,
          pointer: pointerOf(
            op.pointer,
            'responses',
            r.status,
            'content',
            r.mediaType ?? '',
            'examples',
            ex.name,
          ),
          message: `response ${r.status} example ${JSON.stringify(ex.name)} does not match its schema: ${describeErrors(check.errors, ex.value, 2).join('; ')}`,
        });
  }
  return out;
}
