/**
 * One function per operation, preview variant and asynchronous submit, keyed by id: the object
 * the generated `createClient` returns under its typed interface.
 */
import type { ClientModel } from '../../model/types.ts';
import {
  createRuntimeClient,
  type CallOptions,
  type ClientOptions,
  type RequestInput,
  type RuntimeClient,
} from './client.ts';
import { submitAndWait, type WaitOptions } from './wait.ts';

type Fn = (input?: RequestInput, options?: CallOptions) => Promise<unknown>;

export interface RuntimeMethods {
  [id: string]: Fn | Record<string, Fn> | RuntimeClient;
  submitAndWait: Record<string, Fn>;
  /** The untyped runtime client underneath (call any operation by id). */
  $runtime: RuntimeClient;
}

export function createMethods(model: ClientModel, options: ClientOptions): RuntimeMethods {
  const rt = createRuntimeClient(model, options);
  const methods: RuntimeMethods = { submitAndWait: {}, $runtime: rt };
  for (const op of model.operations) {
    const ids = op.preview ? [op.id, op.preview.id] : [op.id];
    for (const id of ids) {
      methods[id] = op.streaming
        ? (input, o) => rt.stream(id, input, o)
        : (input, o) => rt.call(id, input, o);
    }
    if (op.async?.role === 'submit') {
      methods.submitAndWait[op.id] = (input, o) =>
        submitAndWait(rt, op.id, input, o as WaitOptions, options.baseUrl);
    }
  }
  return methods;
}
