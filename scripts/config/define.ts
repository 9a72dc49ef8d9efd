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
import type { FLAG_TABLES } from '../flags/tables.ts';

type Tables = typeof FLAG_TABLES;
/** `dataapi init` writes the file and reads none. */
type Sections = { [C in Exclude<keyof Tables, 'init'>]?: ConfigOf<Tables[C]> };

export type GenerateConfig = ConfigOf<Tables['generate']>;
export type ContractConfig = ConfigOf<Tables['contract']>;
export type ProxyConfig = ConfigOf<Tables['proxy']>;
/** `dataapi report merge`'s flags. */
export type ReportConfig = ConfigOf<Tables['report']>;
export type StartConfig = ConfigOf<Tables['start']>;
export type MockConfig = ConfigOf<Tables['mock']>;
export type ServeConfig = ConfigOf<Tables['serve']>;

/** The kinds of output `dataapi generate` writes (types.ts and model.ts are always written). */
export type OutputKind = NonNullable<GenerateConfig['kinds']>[number];

export interface DataapiConfig extends Sections {
  /** The OpenAPI description: a file or an http(s) URL.    default: spec/openapi.yaml */
  spec?: string;
  /** The generated tree.                                    default: generated */
  output?: string;
}

/** Types a configuration object (no other effect), as kubb's, orval's and hey-api's do. */
export function defineConfig(config: DataapiConfig): DataapiConfig {
  return config;
}
