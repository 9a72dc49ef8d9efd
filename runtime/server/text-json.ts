/**
 * A text body whose schema is an object or a list and never a string (appcenter.ms: `text/plain`
 * with a release's properties, a Swagger 2.0 body converted under the wrong media type): the
 * suite and clients send it as JSON text, so it is read as JSON where it parses. Text that is no
 * JSON stays text, and the schema refuses it as before. XML is read as XML elsewhere.
 */
import { isXmlMedia, type Operation, type ServiceModel } from 'dataapi/model';
import { complex, typesOf } from './schema-types.ts';

/** The reading of the operation's text body as JSON, or undefined when it stays text. */
export function textAsJson(
  model: ServiceModel,
  op: Operation,
): ((body: unknown) => unknown) | undefined {
  const body = op.body;
  if (body?.kind !== 'text' || isXmlMedia(body.mediaType)) return undefined;
  const types = typesOf(model, body.schema);
  if (types.has('string') || !complex(types)) return undefined;
  return (value) =>
    typeof value === 'string' && /^\s*[[{]/.test(value) ? jsonOrText(value) : value;
}

/** Any JSON text (`null`, `true`, `3`, not only an object or list) as its value; other values as they came. */
export function jsonOrText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
