/**
 * Finding and reading the configuration file: `--config FILE`, else the first of
 * dataapi.config.{ts,mts,js,mjs,json} in the working folder. A TypeScript file is loaded through
 * tsx, imported only then: no other command needs a loader.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { didYouMean } from '../../model/suggest.ts';
import { UsageError } from '../args-error.ts';
import type { DataapiConfig } from './define.ts';
import { importFile, TypeScriptLoaderMissing } from '../../runtime/shared/import-file.ts';

export const CONFIG_NAMES = [
  'dataapi.config.ts',
  'dataapi.config.mts',
  'dataapi.config.js',
  'dataapi.config.mjs',
  'dataapi.config.json',
];

const TOP_LEVEL = [
  'spec',
  'output',
  'generate',
  'contract',
  'proxy',
  'report',
  'start',
  'mock',
  'serve',
  'lint',
  'diff',
  'pack',
  'scaffold',
] as const satisfies readonly (keyof DataapiConfig)[];
// Every section of the configuration type is a setting the loader takes.
const _everySection: [Exclude<keyof DataapiConfig, (typeof TOP_LEVEL)[number]>] extends [never]
  ? true
  : never = true;
void _everySection;

export interface LoadedConfig {
  /** The file, as the user would name it (relative to the working folder). */
  file: string;
  /** Its folder: relative paths in it are read from there. */
  dir: string;
  config: DataapiConfig;
}

export function findConfig(cwd = process.cwd()): string | undefined {
  return CONFIG_NAMES.map((n) => path.join(cwd, n)).find((f) => existsSync(f));
}

async function readFile(file: string): Promise<unknown> {
  if (file.endsWith('.json')) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  let mod: { default?: unknown };
  try {
    mod = await importFile(file);
  } catch (err) {
    if (err instanceof TypeScriptLoaderMissing)
      throw new UsageError(`${err.message} (or write dataapi.config.js or .json)`);
    throw err;
  }
  // tsx hands a CommonJS-shaped namespace back for some files: default may sit one level down.
  const value = mod.default as { default?: unknown } | undefined;
  return value && typeof value === 'object' && 'default' in value ? value.default : value;
}

/** The configuration, or undefined when there is none; a bad file is a UsageError naming it. */
export async function loadConfig(
  explicit: string | undefined,
  cwd = process.cwd(),
): Promise<LoadedConfig | undefined> {
  const file = explicit !== undefined ? path.resolve(cwd, explicit) : findConfig(cwd);
  if (file === undefined) return undefined;
  const shown = path.relative(cwd, file) || file;
  if (!existsSync(file)) throw new UsageError(`--config ${explicit}: no such file`);
  let value: unknown;
  try {
    value = await readFile(file);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${shown} could not be loaded: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${shown} must export an object (export default defineConfig({ ... }))`);
  for (const key of Object.keys(value)) {
    if (!(TOP_LEVEL as readonly string[]).includes(key))
      throw new UsageError(
        `${shown}: unknown setting ${JSON.stringify(key)}${didYouMean(key, TOP_LEVEL)}`,
      );
  }
  const config = value as DataapiConfig;
  for (const key of ['spec', 'output'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'string')
      throw new UsageError(`${shown}: ${key} must be a string`);
  }
  return { file: shown, dir: path.dirname(file), config };
}
