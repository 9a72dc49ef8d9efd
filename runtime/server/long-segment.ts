/**
 * A path segment longer than the router takes (Fastify's `maxParamLength`): no route matches it,
 * so the not-found handler, not validation, answers. Where the segment is a path parameter whose
 * value also breaks that parameter's `maxLength`, that is the refusal the request earns (a 400
 * naming the parameter and its bound, the reason a client made it too long); otherwise a 414.
 */
import { deref, type Operation, type ServiceModel } from 'dataapi/model';

/** The longest path parameter the router takes (Fastify's `maxParamLength`): longer is a 414. */
export const MAX_PARAM_LENGTH = 1000;

export type LongSegment =
  /** A parameter's value past its maxLength: validation's refusal. */
  | { param: string; maxLength: number; message: string }
  /** Past the router's bound only. */
  | { param?: undefined; message: string };

/** Why a path the operation's template would take has no route, if a segment is too long. */
export function longSegment(
  model: ServiceModel,
  op: Operation,
  pathname: string,
): LongSegment | undefined {
  const segments = pathname.split('/');
  const long = segments.findIndex((s) => s.length > MAX_PARAM_LENGTH);
  if (long < 0) return undefined;
  const template = op.path.split('/');
  const m = template.length === segments.length ? /^\{([^}]*)\}$/.exec(template[long] ?? '') : null;
  const p = m ? op.parameters.path.find((x) => x.name === m[1]) : undefined;
  const schema = p ? deref(model, p.schema) : undefined;
  const maxLength = typeof schema === 'object' ? schema.maxLength : undefined;
  if (p && typeof maxLength === 'number' && textLength(segments[long]!) > maxLength)
    return {
      param: p.name,
      maxLength,
      message: `params/${p.name} must NOT have more than ${maxLength} characters`,
    };
  return {
    message: `A path segment is longer than the ${MAX_PARAM_LENGTH} characters this server takes`,
  };
}

/** A segment's length in characters once decoded, as validation counts it. */
function textLength(segment: string): number {
  try {
    return [...decodeURIComponent(segment)].length;
  } catch {
    return [...segment].length;
  }
}
