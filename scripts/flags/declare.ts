/**
 * A command's flags, declared once: the parser's options, the flags section of its usage text,
 * the path resolution and the type of its section of the configuration file are all read from
 * this table (scripts/flags/<command>.ts), so none of them can drift from the others.
 */
/** A whole number, written as digits (no "1e3", "0x10" or " 5 "), within its bounds. */
export interface IntKind {
  readonly min?: number;
  readonly max?: number;
  /** What it counts, for the message (`milliseconds`). */
  readonly unit?: string;
}

export interface Flag {
  /** string: one value; list: repeatable (`--reporter a --reporter b`); boolean: no value. */
  readonly type: 'string' | 'boolean' | 'list';
  /** The value's name in the usage text (`--port N`). */
  readonly arg?: string;
  /** The usage text's description; `\n` starts a continuation line (indented by the renderer). */
  readonly help: string;
  readonly default?: string | boolean | readonly string[];
  /** What the usage says the default is, when that is not the value itself; false: say nothing. */
  readonly shown?: string | false;
  /** A path: on the command line read from the working folder, in the file from the file's. */
  readonly path?: true;
  /** Also the configuration's top-level `spec` or `output` (a flag in the section still wins). */
  readonly top?: 'spec' | 'output';
  /** false: not a setting of the configuration file. */
  readonly config?: false;
  /** The values it takes (the configuration type is their union; a one-word flag is checked). */
  readonly choices?: readonly string[];
  /** Its choices are taken in any case (`--method GET`). */
  readonly anyCase?: true;
  /** A number in the configuration file (the flag itself still checks it). */
  readonly number?: true;
  /** Comma-separated words: an array in the configuration file. */
  readonly comma?: true;
  /** CODE=LEVEL words: in the configuration file a map of them, LEVEL one of these. */
  readonly map?: readonly string[];
  /** Its value's kind, checked wherever it is set (values.ts): a whole number within bounds, */
  readonly int?: IntKind;
  /** a port number (0 to 65535), */
  readonly port?: true;
  /** a URL of one of these schemes (`['http', 'https']`), */
  readonly url?: readonly string[];
  /** or a calendar day YYYY-MM-DD. */
  readonly day?: true;
}

export type FlagTable = Readonly<Record<string, Flag>>;

/** Checks a table's shape and keeps its literal types (for ConfigOf and ValuesOf). */
export const defineFlags = <const T extends FlagTable>(table: T): T => table;

type Camel<S extends string> = S extends `${infer A}-${infer B}`
  ? `${A}${Capitalize<Camel<B>>}`
  : S;

/** The configuration key of a flag: camelCase; a `no-` flag is its positive setting, negated. */
export type ConfigKey<N extends string> = N extends `no-${infer P}` ? Camel<P> : Camel<N>;

type Item<F> = F extends { choices: readonly (infer C)[] } ? C : string;

type ConfigValue<F> = F extends { type: 'boolean' }
  ? boolean
  : F extends { map: readonly (infer L)[] }
    ? Record<string, L>
    : F extends { type: 'list' } | { comma: true }
      ? Item<F>[]
      : F extends { number: true }
        ? number
        : Item<F>;

/** A command's section of dataapi.config.*: one optional setting per flag the file may set. */
export type ConfigOf<T extends FlagTable> = {
  -readonly [
    N in keyof T as T[N] extends { config: false } ? never : ConfigKey<N & string>
  ]?: ConfigValue<T[N]>;
};

/** A one-word flag's value: one of its choices (values.ts checked it), else any text. */
type Word<F> = F extends { comma: true } ? string : Item<F>;

/** The parsed flags: a string or list flag without a default may be absent. */
export type ValuesOf<T extends FlagTable> = {
  -readonly [N in keyof T]: T[N] extends { type: 'boolean' }
    ? boolean
    : T[N] extends { type: 'list' }
      ? string[]
      : T[N] extends { default: string }
        ? Word<T[N]>
        : Word<T[N]> | undefined;
};

/** The configuration key of a flag, at run time (as ConfigKey). */
export function configKey(name: string): string {
  return name.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** node:util parseArgs options of a table. */
export function parseArgsOptions(table: FlagTable) {
  const options: Record<
    string,
    { type: 'string' | 'boolean'; multiple?: boolean; default?: string | boolean | string[] }
  > = {};
  for (const [name, flag] of Object.entries(table))
    options[name] = {
      type: flag.type === 'boolean' ? 'boolean' : 'string',
      ...(flag.type === 'list' ? { multiple: true } : {}),
    };
  return options;
}
