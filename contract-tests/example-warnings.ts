/**
 * Response examples that do not match their schemas, apart from the requests (requests.ts): the
 * runner works them out for its workers without loading the sampler.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import { exampleFault, invalidExample, isXmlMedia } from 'dataapi/runtime/shared';
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
    // An XML text example must be XML (the mock answers a sample, written as XML, instead); a
    // JSON one must match its schema.
    const reading = {
      ...(isXmlMedia(r.mediaType) ? { media: { type: r.mediaType!, fault: xmlFault } } : {}),
      schema: r.kind === 'json',
    };
    for (const ex of r.examples) {
      const fault = exampleFault(model, r.schema, ex.value, reading);
      if (fault)
        out.push(
          invalidExample({
            operation: op.id,
            pointer: at(ex.name),
            subject: `response ${r.status} example ${JSON.stringify(ex.name)}`,
            fault,
            value: ex.value,
            wording: 'run',
          }),
        );
    }
  }
  return out;
}
