/**
 * The configuration of this run, as flag values of the command being run: `parseFlags` takes a
 * flag from the command line first, then from here, then its default.
 */
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { didYouMean } from '../../model/suggest.ts';
import { UsageError } from '../args-error.ts';
import type { LoadedConfig } from './load.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
export type FlagValue = string | boolean | string[];

let active: { command: string; loaded: LoadedConfig } | undefined;

export function useConfig(command: string, loaded: LoadedConfig | undefined): void {
  active = loaded ? { command, loaded } : undefined;
}

export function activeConfig(): LoadedConfig | undefined {
  return active?.loaded;
}

/** Flags whose value is a path: read from the configuration file's folder. */
const PATH_FLAGS = new Set([
  'spec',
  'out',
  'dir',
  'report-dir',
  'results',
  'handlers',
  'keys-file',
  'save-failures',
  'test-data',
  'record',
  'ca',
]);

/** The commands whose --spec is the description they work on (not an alternative to --dir). */
const SPEC_COMMANDS = new Set(['generate', 'lint', 'diff', 'pack', 'scaffold', 'serve']);
/** The generated tree: generate's and scaffold's --out, the others' --dir. */
const OUTPUT_FLAG: Record<string, string> = {
  generate: 'out',
  scaffold: 'out',
  mock: 'dir',
  serve: 'dir',
  contract: 'dir',
  start: 'dir',
  report: 'dir',
};

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A path in the file, as the command would take it from the working folder. */
export function configPath(loaded: LoadedConfig, value: string): string {
  if (/^https?:\/\//i.test(value) || path.isAbsolute(value)) return value;
  return path.relative(process.cwd(), path.resolve(loaded.dir, value)) || '.';
}

function asFlag(where: string, value: unknown, option: Options[string]): FlagValue {
  if (option.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`${where} must be true or false`);
    return value;
  }
  const one = (v: unknown) => {
    if (typeof v !== 'string' && typeof v !== 'number')
      throw new UsageError(`${where} must be a string or a number`);
    return String(v);
  };
  if (Array.isArray(value)) return option.multiple ? value.map(one) : value.map(one).join(',');
  // A map (`severity: { 'method-path': 'warning' }`) is the flag's KEY=VALUE words.
  if (option.multiple && value !== null && typeof value === 'object')
    return Object.entries(value).map(([k, v]) => `${k}=${one(v)}`);
  return option.multiple ? [one(value)] : one(value);
}

/** The configuration's values for the running command's flags (checked against them). */
export function configFlags(options: Options): Record<string, FlagValue> {
  if (!active) return {};
  const { command, loaded } = active;
  const { config } = loaded;
  const out: Record<string, FlagValue> = {};
  if (config.spec !== undefined && SPEC_COMMANDS.has(command) && options.spec)
    out.spec = configPath(loaded, config.spec);
  const outputFlag = OUTPUT_FLAG[command];
  if (config.output !== undefined && outputFlag && options[outputFlag])
    out[outputFlag] = configPath(loaded, config.output);
  const section = (config as Record<string, unknown>)[command];
  if (section === undefined) return out;
  if (section === null || typeof section !== 'object' || Array.isArray(section))
    throw new UsageError(
      `${loaded.file}: ${command} must be an object of \`dataapi ${command}\` options`,
    );
  const known = Object.keys(options);
  for (const [key, value] of Object.entries(section)) {
    const flag = kebab(key);
    const option = options[flag];
    if (!option || flag.startsWith('no-'))
      throw new UsageError(
        `${loaded.file}: ${command}.${key} is not an option of \`dataapi ${command}\`${didYouMean(flag, known)}`,
      );
    if (value === undefined) continue;
    const flagValue = asFlag(`${loaded.file}: ${command}.${key}`, value, option);
    out[flag] =
      PATH_FLAGS.has(flag) && typeof flagValue === 'string'
        ? configPath(loaded, flagValue)
        : flagValue;
  }
  return out;
}

/**
 * The description for `mock`, `contract` and `start` when neither --spec nor a generated tree is
 * there: the configuration's, else spec/openapi.yaml when it exists.
 */
export function configuredSpec(): string | undefined {
  if (!active?.loaded.config.spec) return undefined;
  return configPath(active.loaded, active.loaded.config.spec);
}
