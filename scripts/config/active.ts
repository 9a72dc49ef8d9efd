/**
 * The configuration of this run, as flag values of the command being run: `parseFlags` takes a
 * flag from the command line first, then from here, then its default.
 */
import { didYouMean } from '../../model/suggest.ts';
import { UsageError } from '../args-error.ts';
import { configKey, type Flag, type FlagTable } from '../flags/declare.ts';
import { flagPath } from '../flags/paths.ts';
import { checkValue } from '../flags/values.ts';
import type { LoadedConfig } from './load.ts';

export type FlagValue = string | boolean | string[];

let active: { command: string; loaded: LoadedConfig } | undefined;

export function useConfig(command: string, loaded: LoadedConfig | undefined): void {
  active = loaded ? { command, loaded } : undefined;
}

export function activeConfig(): LoadedConfig | undefined {
  return active?.loaded;
}

function asFlag(where: string, value: unknown, flag: Flag): FlagValue {
  if (flag.type === 'boolean') {
    if (typeof value !== 'boolean') throw new UsageError(`${where} must be true or false`);
    return value;
  }
  const list = flag.type === 'list';
  const one = (v: unknown) => {
    if (typeof v !== 'string' && typeof v !== 'number')
      throw new UsageError(`${where} must be a string or a number`);
    return String(v);
  };
  if (Array.isArray(value)) return list ? value.map(one) : value.map(one).join(',');
  // A map (`severity: { 'method-path': 'warning' }`) is the flag's KEY=VALUE words.
  if (list && value !== null && typeof value === 'object')
    return Object.entries(value).map(([k, v]) => `${k}=${one(v)}`);
  return list ? [one(value)] : one(value);
}

/** The configuration's values for the running command's flags (checked against its table). */
export function configFlags(table: FlagTable): Record<string, FlagValue> {
  if (!active) return {};
  const { command, loaded } = active;
  const { config } = loaded;
  const out: Record<string, FlagValue> = {};
  for (const [name, flag] of Object.entries(table)) {
    const top = flag.top && config[flag.top];
    if (top !== undefined && top !== '') out[name] = flagPath(top, loaded.dir);
  }
  const section = (config as Record<string, unknown>)[command];
  if (section === undefined) return out;
  if (section === null || typeof section !== 'object' || Array.isArray(section))
    throw new UsageError(
      `${loaded.file}: ${command} must be an object of \`dataapi ${command}\` options`,
    );
  const byKey = new Map(
    Object.entries(table)
      .filter(([, flag]) => flag.config !== false)
      .map(([name, flag]) => [configKey(name), { name, flag }] as const),
  );
  for (const [key, value] of Object.entries(section)) {
    const known = byKey.get(key);
    if (!known)
      throw new UsageError(
        `${loaded.file}: ${command}.${key} is not an option of \`dataapi ${command}\`${didYouMean(key, [...byKey.keys()])}`,
      );
    if (value === undefined) continue;
    const { name, flag } = known;
    const where = `${loaded.file}: ${command}.${key}`;
    const flagValue = asFlag(where, value, flag);
    checkValue(where, flag, flagValue);
    // `docs: false` is --no-docs.
    out[name] = name.startsWith('no-')
      ? !flagValue
      : flag.path && typeof flagValue === 'string'
        ? flagPath(flagValue, loaded.dir)
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
  return flagPath(active.loaded.config.spec, active.loaded.dir);
}
