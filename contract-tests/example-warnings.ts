/**
 * Response examples that do not match their schemas, apart from the requests (requests.ts): the
 * runner works them out for its workers without loading the sampler.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { describeErrors, isXmlMedia, validatorFor } from 'dataapi/runtime/shared';
import { xmlFault } from 'dataapi/runtime/xml';
import { pointerOf, type DescriptionWarning } from './warnings.ts';

/**
 * Response examples that do not match their schemas (a mock answers a schema sample instead). A
 * worker in the runner's process has the runner work them out (scheduler-channel.ts), where the
 * embedded mock has compiled the same schemas with the same Ajv: compiled once, not per thread.
 */
export function responseExampleWarnings(model: ServiceModel, op: Operation): DescriptionWarning[] {
  const out: DescriptionWarning[] = [];
  for (const r of op.responses) {
    const at = (name: string) =>
      pointerOf(op.pointer, 'responses', r.status, 'content', r.mediaType ?? '', 'examples', name);
    // An XML text example that is not XML (the mock answers a sample, written as XML, instead).
    if (isXmlMedia(r.mediaType))
      for (const ex of r.examples) {
        const fault = typeof ex.value === 'string' ? xmlFault(ex.value) : undefined;
        if (fault !== undefined)
          out.push({
            code: 'example-invalid',
            operation: op.id,
            pointer: at(ex.name),
            message: `response ${r.status} example ${JSON.stringify(ex.name)} is not ${r.mediaType}: ${fault}`,
          });
      }
    if (r.schema === undefined || r.kind !== 'json' || r.examples.length === 0) continue;
    const check = validatorFor(model).compile(r.schema);
    for (const ex of r.examples)
      if (!check(ex.value))
        out.push({
          code: 'example-invalid',
          operation: op.id,
          pointer: at(ex.name),
          message: `response ${r.status} example ${JSON.stringify(ex.name)} does not match its schema: ${describeErrors(check.errors, ex.value, 2).join('; ')}`,
        });
  }
  return out;
}
