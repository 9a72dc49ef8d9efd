/**
 * What the runner hands to the generated tests (vitest `provide`/`inject`): the target, the key,
 * the limits. The key travels only here and in requests; everything printed goes through redact().
 */
/** The run's fuzzing settings (--fuzz N, --seed S). */
export interface FuzzConfig {
  /** Valid and invalid requests generated per operation (each). */
  runs: number;
  /** The run's seed: every operation's own seed derives from it and the operation id. */
  seed: number;
}

export interface ContractConfig {
  /** Base URL of the target, without a trailing slash. */
  baseUrl: string;
  /** The key (DATAAPI_APPKEY); empty when none was given. */
  appkey: string;
  /** Per-request timeout in milliseconds: a response that has not arrived by then fails. */
  timeoutMs: number;
  /** Send operations that write (uploads, submits). */
  allowWrites: boolean;
  /** Fail responses slower than this (ms), when set. */
  maxResponseTimeMs?: number;
  /** 429 answers retried per request before the request counts as rate limited. */
  maxRetries: number;
  /** Longest single Retry-After wait honoured (ms); longer waits are capped. */
  maxRetryWaitMs: number;
  /**
   * The runner's scheduler (rate limits across workers, total budget): base URL of its local
   * endpoint. Absent: each file schedules on its own (tests run without the runner).
   */
  schedulerUrl?: string;
  /**
   * The same scheduler on a BroadcastChannel of this name, for workers that are threads of the
   * runner's process (`schedulerPid`): cheaper than loopback HTTP (scheduler-channel.ts).
   */
  schedulerChannel?: string;
  /** The runner's process id: a worker in another process uses `schedulerUrl`. */
  schedulerPid?: number;
  /** Total request budget of the run (only enforced locally when there is no schedulerUrl). */
  budget?: number;
  /** Per operation id, the variants to run (--only); absent: every variant of every operation. */
  variants?: Record<string, ('main' | 'preview')[]>;
  /** Property-based fuzzing (--fuzz N, --seed S); absent: the fixed requests only. */
  fuzz?: FuzzConfig;
  /** The checks to run, by name (--checks, --exclude-checks); absent: every check. */
  checks?: string[];
  /** The user's severity per check or warning code (contract.severity, --severity). */
  severity?: SeveritySettings;
  /** Keep each failing request for a saved test (--save-failures). */
  saveFailures?: boolean;
  /**
   * Operations whose requests a worker has under way at once (prefetch.ts; each still paced by
   * its own limits); absent: one at a time.
   */
  operationsAtOnce?: number;
  /** The operation ids of the worker's files in run order, when one worker runs them all (run-order.ts). */
  order?: string[];
  /** The user's test data (--test-data), checked against the description: given-data.ts. */
  testData?: GivenData;
}

import type { SeveritySettings } from 'dataapi/model';
import type { GivenData } from './given-data.ts';

export const CONFIG_KEY = 'dataapiContract';

declare module 'vitest' {
  export interface ProvidedContext {
    dataapiContract: ContractConfig;
  }
}

/** How a 429 is retried (Retry-After honoured, capped), the same for every kind of run. */
export const RETRY_DEFAULTS = { maxRetries: 3, maxRetryWaitMs: 30_000 } as const;

/** Defaults for a config read from the environment (vitest run directly, without the runner). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ContractConfig | undefined {
  const baseUrl = env.DATAAPI_BASE_URL;
  if (!baseUrl) return undefined;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    appkey: env.DATAAPI_APPKEY ?? '',
    timeoutMs: Number(env.DATAAPI_TIMEOUT_MS ?? 10_000),
    allowWrites: env.DATAAPI_ALLOW_WRITES === '1',
    ...RETRY_DEFAULTS,
  };
}
