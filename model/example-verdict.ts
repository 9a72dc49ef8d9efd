/**
 * Whether an example is valid against its schema, decided here, and the `example-invalid` finding
 * that says it is not, written here: lint, the mock's catalogue, the suite's description warnings
 * and the request builder each validated on their own before (issue 47). The callers still decide
 * what to do with an invalid example (leave it out, send or answer a schema sample, refuse to
 * start) and say so in the finding's words.
 */
import type { FindingInput } from './finding.ts';
import type { BodyKind, JsonSchema } from './types.ts';
import type { ServiceModel } from './service-model.ts';
import {
  coercingValidatorFor,
  describeErrors,
  directionalErrors,
  validatorFor,
  type ErrorObject,
} from './validate.ts';

/** Why an example is no valid instance of its schema. */
export type ExampleFault =
  | { kind: 'schema'; errors: ErrorObject[] }
  | { kind: 'uncompilable'; reason: string }
  | { kind: 'media'; mediaType: string; reason: string }
  /** An empty text for a required body: no body at all on the wire. */
  | { kind: 'empty' };

/** How the example is read, where it is not a value checked as it is. */
export interface ExampleReading {
  /**
   * A request body's: the request view of the schema (a required readOnly field waived), form and
   * multipart fields coerced from text as a server reads them, bytes not checked, and an empty
   * text of a required body is no body.
   */
  requestBody?: { kind: BodyKind; required: boolean };
  /**
   * A text media type that must be well-formed (XML): its reader, handed in (the model reads no
   * XML; runtime/xml's xmlFault). Checked before the schema.
   */
  media?: { type: string; fault: (text: string) => string | undefined };
  /** Whether to check the schema too (the value's kind is JSON, or a request body's). */
  schema?: boolean;
}

/**
 * What is wrong with an example, undefined when nothing is. Validators are the model's, compiled
 * once per schema and process (model/validate.ts), so the four callers share the compiled code.
 */
export function exampleFault(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  value: unknown,
  reading: ExampleReading = {},
): ExampleFault | undefined {
  const body = reading.requestBody;
  if (body && value === '' && body.required && body.kind !== 'json') return { kind: 'empty' };
  if (reading.media && typeof value === 'string') {
    const reason = reading.media.fault(value);
    if (reason !== undefined) return { kind: 'media', mediaType: reading.media.type, reason };
  }
  if (schema === undefined || reading.schema === false) return undefined;
  if (body?.kind === 'binary') return undefined; // bytes: no schema speaks of them
  let validate;
  try {
    validate = body
      ? textRead(body.kind)
        ? coercingValidatorFor(model).compileFor(schema, 'text-request')
        : validatorFor(model).compileFor(schema, 'request')
      : validatorFor(model).compile(schema);
  } catch (err) {
    return { kind: 'uncompilable', reason: (err as Error).message.split('\n')[0] ?? '' };
  }
  if (!body) return validate(value) ? undefined : { kind: 'schema', errors: validate.errors ?? [] };
  // A coercing validator coerces in place: the example itself stays as written.
  const ok = validate(structuredClone(value));
  const errors = ok ? [] : directionalErrors(model, validate.errors, 'request');
  return errors.length === 0 ? undefined : { kind: 'schema', errors };
}

const textRead = (kind: BodyKind) => kind === 'form' || kind === 'multipart';

/**
 * How a report words it: lint's sentence (`the ... does not validate against its schema: a; b`),
 * a contract run's (`... does not match its schema (a sample is sent instead): a; b`) or the
 * mock's start-up lines (the errors one per line). Each is a public output kept as it was.
 */
export type ExampleWording = 'lint' | 'run' | 'mock';

export interface InvalidExample {
  operation: string;
  pointer: string;
  /** The example as the message names it: `request body example "broken"`, `parameter q`. */
  subject: string;
  fault: ExampleFault;
  /** The example's value, quoted in the errors. */
  value: unknown;
  /** What is done instead (`a schema sample is sent instead`), in brackets after the verdict. */
  instead?: string;
  /** How the message names the schema: `its schema` unless said (`its response schema`). */
  schemaName?: string;
  wording: ExampleWording;
}

const ERRORS: Record<ExampleWording, { limit: number; separator: string; lead: string }> = {
  lint: { limit: 3, separator: '; ', lead: ': ' },
  run: { limit: 2, separator: '; ', lead: ': ' },
  mock: { limit: 5, separator: '\n  ', lead: ':\n  ' },
};

/** The `example-invalid` finding of an example exampleFault found at fault. */
export function invalidExample(e: InvalidExample): FindingInput<'example-invalid'> & {
  operation: string;
  pointer: string;
} {
  return {
    code: 'example-invalid',
    operation: e.operation,
    pointer: e.pointer,
    message: messageOf(e),
  };
}

function messageOf(e: InvalidExample): string {
  const instead = e.instead === undefined ? '' : ` (${e.instead})`;
  const the = e.wording === 'lint' ? 'the ' : '';
  const f = e.fault;
  switch (f.kind) {
    case 'empty':
      return `${e.subject} is empty, which is no body, but the body is required${instead}`;
    case 'media':
      return `${e.subject} is not ${f.mediaType}${instead}: ${f.reason}`;
    case 'uncompilable':
      return `the schema of ${the}${e.subject} cannot be compiled${instead}: ${f.reason}`;
    case 'schema': {
      const verb = e.wording === 'lint' ? 'does not validate against' : 'does not match';
      const { limit, separator, lead } = ERRORS[e.wording];
      const errors = describeErrors(f.errors, e.value, limit).join(separator);
      return `${the}${e.subject} ${verb} ${e.schemaName ?? 'its schema'}${instead}${lead}${errors}`;
    }
  }
}
