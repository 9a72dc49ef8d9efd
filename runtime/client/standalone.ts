/**
 * Tree-shakeable calls: one standalone function per operation, each carrying only the slice of
 * the model it needs (its operation, its async partner, its business code group). A bundle that
 * imports one function carries one operation; `createClient` carries them all. Both share the
 * runtime: a slice is a small ClientModel handed to createRuntimeClient.
 */
import type { BusinessCodeGroup, ClientModel, Operation } from '../../model/types.ts';
import {
  createRuntimeClient,
  type CallOptions,
  type ClientOptions,
  type ClientResult,
  type RequestInput,
  type RuntimeClient,
} from './client.ts';
import type { SseStream } from './sse.ts';
import type { DataOf, MethodArgs, MethodMeta, OperationInput } from './types.ts';
import { submitAndWait, type WaitOptions } from './wait.ts';

/** The connection settings standalone functions call with (one limiter per operation). */
export interface Caller {
  readonly options: ClientOptions;
}

interface CallerState extends Caller {
  readonly runtimes: WeakMap<ClientModel, RuntimeClient>;
}

/** Creates the caller that standalone operation functions take as their first argument. */
export function createCaller(options: ClientOptions): Caller {
  const state: CallerState = { options, runtimes: new WeakMap() };
  return state;
}

/** A model that holds only some operations and the code groups they use. */
export function modelSlice(
  operations: Operation[],
  businessCodeGroups: BusinessCodeGroup[],
): ClientModel {
  return { operations, businessCodeGroups, schemaRoot: {} };
}

function runtimeOf(caller: Caller, slice: ClientModel): RuntimeClient {
  const state = caller as CallerState;
  if (!(state.runtimes instanceof WeakMap))
    throw new TypeError('the first argument must be a caller from createCaller()');
  let rt = state.runtimes.get(slice);
  if (!rt) state.runtimes.set(slice, (rt = createRuntimeClient(slice, state.options)));
  return rt;
}

type Standalone = (caller: Caller, input?: RequestInput, options?: CallOptions) => Promise<unknown>;

/** The standalone function of one operation (or preview variant) `id` of `slice`. */
export function bindOperation(slice: ClientModel, id: string, stream: boolean): Standalone {
  return stream
    ? (caller, input, options) => runtimeOf(caller, slice).stream(id, input, options)
    : (caller, input, options) => runtimeOf(caller, slice).call(id, input, options);
}

/** Submit-then-poll of the asynchronous submit `id` of `slice` (which holds its partner too). */
export function bindSubmitAndWait(slice: ClientModel, id: string): Standalone {
  return (caller, input, options) =>
    submitAndWait(
      runtimeOf(caller, slice),
      id,
      input,
      options as WaitOptions,
      caller.options.baseUrl,
    );
}

/** The type of a standalone function: the method's arguments after the caller. */
export type StandaloneMethod<O, M extends MethodMeta> = M['stream'] extends true
  ? (caller: Caller, ...args: MethodArgs<OperationInput<O, M['files']>>) => Promise<SseStream>
  : (
      caller: Caller,
      ...args: MethodArgs<OperationInput<O, M['files']>>
    ) => Promise<ClientResult<DataOf<O, M>>>;

/** The type of a standalone submit-and-wait function. */
export type StandaloneWaitMethod<O, M extends MethodMeta, S, SM extends MethodMeta> = (
  caller: Caller,
  ...args: MethodArgs<OperationInput<O, M['files']>, WaitOptions>
) => Promise<ClientResult<DataOf<S, SM> | DataOf<O, M>>>;
