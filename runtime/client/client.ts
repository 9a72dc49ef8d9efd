/**
 * The client runtime: interprets the model to call any operation or preview variant by id.
 * openapi-fetch does the request plumbing (URL, parameter and body serialisation, headers); the
 * modules beside this one add what the model knows: the key transport (request-parts.ts), pacing
 * under the rate-limit windows, timeouts and retries (transport.ts), the envelope and business
 * codes (result.ts) and the one error type (failures.ts). Generated code wraps it in one typed
 * method per operation.
 */
import type { ClientModel } from '../../model/types.ts';
import type { CallOptions, ClientOptions, ClientResult, RequestInput } from './options.ts';
import { openStream, readResult } from './result.ts';
import { send } from './send.ts';
import { createSession } from './session.ts';
import type { SseStream } from './sse.ts';

export type {
  CallOptions,
  ClientOptions,
  ClientResult,
  KeyLocation,
  RequestInput,
} from './options.ts';

export interface RuntimeClient {
  readonly model: ClientModel;
  call(id: string, input?: RequestInput, options?: CallOptions): Promise<ClientResult>;
  stream(id: string, input?: RequestInput, options?: CallOptions): Promise<SseStream>;
  /** Internal: a call to a path below the base URL in the operation's name (polling URLs). */
  callPath(
    id: string,
    path: string,
    query: Record<string, string>,
    options?: CallOptions,
  ): Promise<ClientResult>;
}

export function createRuntimeClient(model: ClientModel, options: ClientOptions): RuntimeClient {
  const session = createSession(model, options);
  return {
    model,
    async call(id, input = {}, callOptions = {}) {
      const t = session.targetOf(id);
      return readResult(await send(session, t, input, callOptions, 'text'));
    },
    async callPath(id, path, query, callOptions = {}) {
      const t = session.targetOf(id);
      return readResult(await send(session, t, { query }, callOptions, 'text', path));
    },
    async stream(id, input = {}, callOptions = {}) {
      const t = session.targetOf(id);
      return openStream(await send(session, t, input, callOptions, 'stream'));
    },
  };
}
