/**
 * `dataapi.config.ts` / `.js` / `.json`: what the flags of every command would otherwise repeat.
 * Flags given on the command line win over the file; the file wins over the defaults.
 *
 *   import { defineConfig } from 'dataapi';
 *   export default defineConfig({ spec: 'openapi.yaml', output: 'src/api' });
 *
 * Relative paths are read from the configuration file's folder. Each command's section is typed
 * from its flag table (scripts/flags/<command>.ts): a setting per flag, camelCased.
 */
import type { ConfigOf } from '../flags/declare.ts';
import type { PROXY_FLAGS } from '../flags/proxy.ts';

/** The kinds of output `dataapi generate` writes (types.ts and model.ts are always written). */
export type OutputKind = 'client' | 'server' | 'mock' | 'contract-tests';

export interface ContractConfig {
  /** The deployment to test; without it the embedded mock is tested. */
  baseUrl?: string;
  /** console, junit, json, html, or any of vitest's reporters. */
  reporter?: string[];
  reportDir?: string;
  /** Per-request timeout, ms. */
  timeout?: number;
  maxResponseTime?: number;
  /** At most this many requests in a run. */
  budget?: number;
  allowWrites?: boolean;
  strict?: boolean;
  only?: string[];
  results?: string;
  /** Only these checks, by name (`dataapi contract --checks`). */
  checks?: string[];
  /** Every check but these (`dataapi contract --exclude-checks`). */
  excludeChecks?: string[];
  /** Write each failure there as a vitest test that replays it (`--save-failures`). */
  saveFailures?: string;
  /** Values the valid requests send, per operation id (`--test-data`, JSON or YAML). */
  testData?: string;
  /**
   * A check's or a description warning's severity (`--severity`): `{ 'method-path': 'warning',
   * 'undeclared-content': 'failure', deprecation: 'off' }`. Codes: docs/diagnostics.md.
   */
  severity?: Record<string, 'failure' | 'warning' | 'off'>;
}

/** `dataapi proxy`'s flags (scripts/flags/proxy.ts). */
export type ProxyConfig = ConfigOf<typeof PROXY_FLAGS>;

/** \`dataapi report merge\`'s flags. */
export interface ReportConfig {
  /** console, junit, json, html, sarif (default: all of them). */
  reporter?: string[];
  reportDir?: string;
}

export interface MockConfig {
  port?: number;
  host?: string;
  seed?: number;
  rateLimit?: boolean;
  skipInvalidExamples?: boolean;
  strictExamples?: boolean;
}

export interface ServeConfig {
  port?: number;
  host?: string;
  handlers?: string;
  exampleHandlers?: boolean;
  keysFile?: string;
  redis?: string;
  redisFailure?: 'open' | 'closed';
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  shutdownTimeout?: number;
}

export interface DataapiConfig {
  /** The OpenAPI description: a file or an http(s) URL.    default: spec/openapi.yaml */
  spec?: string;
  /** The generated tree.                                    default: generated */
  output?: string;
  generate?: { kinds?: OutputKind[] };
  contract?: ContractConfig;
  proxy?: ProxyConfig;
  report?: ReportConfig;
  start?: Pick<ContractConfig, 'baseUrl' | 'reporter' | 'reportDir' | 'timeout' | 'strict'>;
  mock?: MockConfig;
  serve?: ServeConfig;
  lint?: { format?: 'text' | 'json' };
  diff?: { base?: string; format?: string; allow?: string[] };
  pack?: { out?: string; name?: string; version?: string };
  scaffold?: { handlers?: string; envelope?: 'capitalised' | 'lowerCamel' | 'none' };
}

/** Types a configuration object (no other effect), as kubb's, orval's and hey-api's do. */
export function defineConfig(config: DataapiConfig): DataapiConfig {
  return config;
}
