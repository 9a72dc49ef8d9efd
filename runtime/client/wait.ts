/**
 * Submit-and-wait for asynchronous operations (op.async): send the submit, then poll the paired
 * status operation (or the polling URL, when it is under the base URL) with a growing interval
 * until the task reaches a final state or the deadline passes.
 */
import type { Operation } from '../../model/types.ts';
import { DataApiError } from './errors.ts';
import type { CallOptions, ClientResult, RequestInput, RuntimeClient } from './client.ts';
import { sleep } from './rate-limit.ts';

/** Task states treated as final when the description does not list them (the service does not list them: docs/service.md §8). */
export const DEFAULT_FINAL_STATES = [
  'completed',
  'complete',
  'succeeded',
  'success',
  'done',
  'finished',
  'failed',
  'failure',
  'error',
  'cancelled',
  'canceled',
  'expired',
];

export interface WaitOptions extends CallOptions {
  /** First polling interval (default 500 ms); grows by `factor` up to `maxIntervalMs`. */
  intervalMs?: number | undefined;
  maxIntervalMs?: number | undefined;
  factor?: number | undefined;
  /** Overall deadline from the submit (default 120 s). */
  waitTimeoutMs?: number | undefined;
  /** Whether a task state is final (default: DEFAULT_FINAL_STATES, case-insensitive). */
  isFinal?: ((state: string | undefined, data: unknown) => boolean) | undefined;
  /** Called with each polled result (progress reporting). */
  onPoll?: ((result: ClientResult) => void) | undefined;
}

const field = (data: unknown, name: string): string | undefined => {
  const v =
    typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
};

export async function submitAndWait(
  rt: RuntimeClient,
  submitId: string,
  input: RequestInput | undefined,
  options: WaitOptions = {},
  baseUrl: string,
): Promise<ClientResult> {
  const submit = rt.model.operations.find((o) => o.id === submitId);
  const link = submit?.async;
  if (!submit || !link || link.role !== 'submit')
    throw new Error(`${JSON.stringify(submitId)} is not an asynchronous submit operation`);
  const status = rt.model.operations.find((o) => o.id === link.partner);
  const isFinal =
    options.isFinal ??
    ((state: string | undefined) =>
      state !== undefined && DEFAULT_FINAL_STATES.includes(state.toLowerCase()));
  const started = Date.now();
  const deadline = started + (options.waitTimeoutMs ?? 120_000);
  const factor = options.factor ?? 1.5;
  const maxInterval = options.maxIntervalMs ?? 5000;
  let interval = options.intervalMs ?? 500;

  const { intervalMs, maxIntervalMs, waitTimeoutMs, isFinal: _f, onPoll, ...callOptions } = options;
  let result = await rt.call(submitId, input, callOptions);
  const taskId = field(result.data, link.operationIdField);
  let pollingUrl = field(result.data, link.pollingUrlField);
  let polls = 0;
  while (!isFinal(field(result.data, link.statusField), result.data)) {
    if (Date.now() + interval > deadline) {
      throw new DataApiError(
        {
          operation: submitId,
          method: submit.method,
          url: baseUrl + submit.path,
          outcome: 'timeout',
          attempts: polls + 1,
          causeMessage: `task ${taskId ?? '?'} not final after ${Date.now() - started} ms (state ${JSON.stringify(field(result.data, link.statusField))})`,
        },
        [],
      );
    }
    await sleep(interval, options.signal);
    interval = Math.min(maxInterval, interval * factor);
    result = await poll(rt, status, taskId, pollingUrl, baseUrl, callOptions);
    pollingUrl = field(result.data, link.pollingUrlField) ?? pollingUrl;
    polls++;
    onPoll?.(result);
  }
  return result;
}

async function poll(
  rt: RuntimeClient,
  status: Operation | undefined,
  taskId: string | undefined,
  pollingUrl: string | undefined,
  baseUrl: string,
  options: CallOptions,
): Promise<ClientResult> {
  const pathParams = status?.parameters.path ?? [];
  if (status && pathParams.length === 1 && taskId !== undefined)
    return rt.call(status.id, { path: { [pathParams[0]!.name]: taskId } }, options);
  // The key goes only to the service itself: a polling URL elsewhere is not followed.
  if (status && pollingUrl) {
    const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const target = new URL(pollingUrl, base);
    if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) {
      const rel = `/${target.pathname.slice(base.pathname.length)}`;
      return rt.callPath(status.id, rel, Object.fromEntries(target.searchParams), options);
    }
  }
  throw new Error(
    'cannot poll: the status operation has no single path parameter and the polling URL is not under the base URL',
  );
}
