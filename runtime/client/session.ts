/**
 * What every call of one client shares: the model's call targets (operations and preview
 * variants by id), openapi-fetch, the fetch to send with, the pacing limiters and the secrets no
 * error may show.
 */
import createFetchClient from 'openapi-fetch';
import type { ClientModel, Operation } from '../../model/types.ts';
// Shared modules by file, not through runtime/shared's entry (which also carries validation):
// the packed client must not depend on Ajv.
import { basicHeader } from '../shared/credentials.ts';
import { DeprecationNotices, emitDeprecationWarning } from './deprecation.ts';
import type { ClientOptions } from './options.ts';
import { settingsOf, WindowsLimiter } from './rate-limit.ts';
import type { FetchLike } from './transport.ts';

/** An operation or its preview variant, as a call names it. */
export interface Target {
  /** The operation or preview variant id. */
  id: string;
  op: Operation;
  path: string;
  preview: boolean;
}

export interface Session {
  readonly model: ClientModel;
  readonly options: ClientOptions;
  readonly http: ReturnType<typeof createFetchClient<Record<string, never>>>;
  readonly fetch: FetchLike;
  /** The credentials and their Basic encodings: redacted from every error. */
  readonly secrets: (string | undefined)[];
  targetOf(id: string): Target;
  /** Tells the caller once per deprecated operation (ClientOptions.onDeprecated). */
  readonly deprecations: DeprecationNotices;
  /** The limiter of a target's rate-limit windows (one per target), unless pacing is off. */
  limiterFor(t: Target): WindowsLimiter | undefined;
}

function targetsOf(model: ClientModel): Map<string, Target> {
  const targets = new Map<string, Target>();
  for (const op of model.operations) {
    targets.set(op.id, { id: op.id, op, path: op.path, preview: false });
    if (op.preview)
      targets.set(op.preview.id, { id: op.preview.id, op, path: op.preview.path, preview: true });
  }
  return targets;
}

function secretsOf(options: ClientOptions): (string | undefined)[] {
  const credentials = [options.appkey, ...Object.values(options.credentials ?? {})];
  return [
    ...credentials,
    ...credentials.map((c) => (c === undefined ? undefined : basicHeader(c).slice(6))),
  ];
}

export function createSession(model: ClientModel, options: ClientOptions): Session {
  const targets = targetsOf(model);
  const limiters = new Map<string, WindowsLimiter>();
  const pacing = options.rateLimit;
  return {
    model,
    options,
    http: createFetchClient<Record<string, never>>({ baseUrl: options.baseUrl }),
    fetch: options.fetch ?? ((r) => globalThis.fetch(r)),
    secrets: secretsOf(options),
    deprecations: new DeprecationNotices(options.onDeprecated ?? emitDeprecationWarning),
    targetOf(id) {
      const t = targets.get(id);
      if (!t) throw new Error(`unknown operation ${JSON.stringify(id)}`);
      return t;
    },
    limiterFor(t) {
      if (pacing === false) return undefined;
      let limiter = limiters.get(t.id);
      if (!limiter) {
        // `?? [rateLimit]`: a model generated before `rateLimits` existed.
        const windows = t.op.rateLimits ?? [t.op.rateLimit];
        const settings = settingsOf(windows, pacing?.overrides?.[t.id]);
        limiters.set(t.id, (limiter = new WindowsLimiter(settings, pacing?.marginMs)));
      }
      return limiter;
    },
  };
}
