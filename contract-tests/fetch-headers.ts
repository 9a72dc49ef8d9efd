/**
 * Request headers Node's fetch (undici) writes itself, and so the suite's transport, which sends as
 * fetch does (wire-request.ts; saved failures replay with fetch): another value can be sent, never
 * none. So a request "without" one of them cannot be built (a required one's missing case is not
 * sent, and the coverage says so), and a declared header that fetch's own value would break (an
 * `Accept-Language` enum that `*` is not in) is sent with a valid value in every valid request.
 */
import { atLocation, type Operation, type Parameter, type ServiceModel } from 'dataapi/model';
import { validatorFor } from 'dataapi/runtime/shared';

/** The values fetch adds when the request does not set the header. */
export const FETCH_DEFAULTS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** Written by the HTTP layer from the connection and the body, whatever the request says. */
const FRAMING = new Set(['host', 'connection', 'content-length']);

/**
 * Whether the HTTP layer writes this header from the connection and the body, whatever the request
 * sets (`Content-Length: abc` goes out as the body's length): no invalid value of it can be sent.
 */
export function framing(name: string): boolean {
  return FRAMING.has(name.toLowerCase());
}

/** A header parameter the transport writes itself (Content-Length, Host, ...): never sent as given. */
export function framingParameter(p: Parameter): boolean {
  const no = () => false;
  return atLocation(p, { path: no, query: no, header: (h) => framing(h.name), cookie: no });
}

/** Whether every request the suite sends carries this header, set or not. */
export function alwaysSent(name: string): boolean {
  const lower = name.toLowerCase();
  return FETCH_DEFAULTS[lower] !== undefined || FRAMING.has(lower);
}

/** A header parameter that fetch's own value would make invalid: a valid request must set it. */
export function mustSend(model: ServiceModel, p: Parameter): boolean {
  const none = () => undefined;
  const fallback = atLocation(p, {
    header: (h) => FETCH_DEFAULTS[h.name.toLowerCase()],
    path: none,
    query: none,
    cookie: none,
  });
  if (fallback === undefined) return false;
  try {
    return validatorFor(model).compile(p.schema)(fallback) !== true;
  } catch {
    return false; // a schema Ajv cannot compile: reported elsewhere; nothing to add here
  }
}

/**
 * Whether a request can go without the parameter: not a path one (that is another route), not a
 * header fetch always writes.
 */
export function canLeaveOut(p: Parameter): boolean {
  const yes = () => true;
  return atLocation(p, {
    path: () => false,
    query: yes,
    header: (h) => !alwaysSent(h.name),
    cookie: yes,
  });
}

/** Required headers of the operations whose absence cannot be sent (`op header Name missing`). */
export function unsendableAbsences(ops: readonly Operation[]): string[] {
  return ops.flatMap((op) =>
    op.parameters.header
      .filter((p) => p.required && alwaysSent(p.name))
      .map((p) => `${op.id} header ${p.name} missing`),
  );
}
