/**
 * Each command's flag table (scripts/flags/<command>.ts) against what the command does with it:
 * every declared flag is described in its --help and every flag its --help describes is declared;
 * every setting the table allows is accepted in a dataapi.config.json and arrives as the flag's
 * value; a path flag from the file is read from the file's folder, one on the command line from
 * the working folder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFlags, UsageError } from '../../scripts/args.ts';
import { useConfig } from '../../scripts/config/active.ts';
import type { DataapiConfig } from '../../scripts/config/define.ts';
import { loadConfig } from '../../scripts/config/load.ts';
import { configKey, type Flag, type FlagTable } from '../../scripts/flags/declare.ts';
import { FLAG_TABLES } from '../../scripts/flags/tables.ts';
import { valueFault } from '../../scripts/flags/values.ts';
import { removeAfterFile } from '../cleanup.ts';
import { tempDir } from '../pack/helpers.ts';

const COMMANDS = Object.entries(FLAG_TABLES) as [string, FlagTable][];

afterEach(() => useConfig('', undefined));

async function usageOf(command: string): Promise<string> {
  const mod = (await import(`../../scripts/commands/${command}.ts`)) as {
    command: { usage: string };
  };
  return mod.command.usage;
}

/** The flags described at the start of a line of the usage text (`  --port N  ...`). */
const describedFlags = (usage: string) =>
  [...usage.matchAll(/^ {2}--([a-z][a-z-]*)/gm)].map((m) => m[1]!).sort();

/** A value for the flag's setting in the file, and the flag value it must give. */
function sample(name: string, flag: Flag, fileDir: string): { setting: unknown; flag: unknown } {
  const word = flag.choices?.[0] ?? `${name}-value`;
  // A path from the file is the file folder's, named from the working folder.
  const asRead = (v: string) =>
    flag.path ? path.relative(process.cwd(), path.join(fileDir, v)) : v;
  if (flag.type === 'boolean') {
    // `docs: false` is --no-docs.
    const negated = name.startsWith('no-');
    return { setting: !negated, flag: true };
  }
  if (flag.map)
    return { setting: { 'method-path': flag.map[0] }, flag: [`method-path=${flag.map[0]}`] };
  if (flag.type === 'list') return { setting: [word, word], flag: [word, word] };
  if (flag.comma) return { setting: [word, word], flag: `${word},${word}` };
  if (flag.number) return { setting: 7, flag: '7' };
  // A value of the flag's kind (values.ts checks it in the file too).
  if (flag.day) return { setting: '2026-01-02', flag: '2026-01-02' };
  if (flag.url) return { setting: `${flag.url[0]}://x.test`, flag: `${flag.url[0]}://x.test` };
  return { setting: word, flag: asRead(word) };
}

describe.each(COMMANDS)('dataapi %s', (command, table) => {
  it('describes in --help every flag it declares, and declares every flag --help describes', async () => {
    const usage = await usageOf(command);
    expect(describedFlags(usage)).toEqual(Object.keys(table).sort());
  });

  it('takes each setting the table allows from dataapi.config.json, paths from its folder', async () => {
    const settable = Object.entries(table).filter(([, flag]) => flag.config !== false);
    if (settable.length === 0) return;
    const dir = removeAfterFile(await tempDir('flags'));
    const fileDir = path.join(dir, 'project');
    await mkdir(fileDir);
    const section: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [name, flag] of settable) {
      const { setting, flag: value } = sample(name, flag, fileDir);
      section[configKey(name)] = setting;
      expected[name] = value;
    }
    const file = path.join(fileDir, 'dataapi.config.json');
    await writeFile(file, JSON.stringify({ [command]: section }));
    useConfig(command, await loadConfig(file));
    const { values } = parseFlags([], table, 'usage');
    expect(Object.fromEntries(settable.map(([name]) => [name, values[name]]))).toEqual(expected);
    // On the command line, the same path is the working folder's.
    const pathFlag = settable.find(([, flag]) => flag.path && flag.type === 'string');
    if (pathFlag) {
      const [name] = pathFlag;
      const { values: cli } = parseFlags([`--${name}`, 'given/here'], table, 'usage');
      expect(cli[name]).toBe('given/here');
    }
  });
});

/** A value each kind refuses, and the message's rest after `<where> `. */
function refusedValue(flag: Flag): { value: string; says: RegExp } | undefined {
  if (flag.int) return { value: '1.5', says: /^must be a whole number.*, got "1\.5"$/ };
  if (flag.port)
    return { value: '65536', says: /^must be a port number \(0 to 65535\), got "65536"$/ };
  if (flag.day)
    return { value: '2026-02-30', says: /^must be a day YYYY-MM-DD, got "2026-02-30"$/ };
  if (flag.url) return { value: 'ftp://x', says: /^must be an? [a-z:/ ]+ URL, got "ftp:\/\/x"$/ };
  // A one-word flag with choices: the choices named, and what was typed (comma lists: their command).
  if (flag.choices && flag.type === 'string' && !flag.comma) {
    const names = flag.choices.join(', ').replace(/, (?=[^,]+$)/, ' or ');
    return { value: 'zz-none', says: new RegExp(`^must be ${names}, got "zz-none"$`) };
  }
  return undefined;
}

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  return 'accepted';
};

const KINDED = COMMANDS.flatMap(([command, table]) =>
  Object.entries(table)
    .filter(([, flag]) => refusedValue(flag))
    .map(([name, flag]) => [`${command} --${name}`, command, table, name, flag] as const),
);

describe.each(KINDED)(
  '%s: its value checked from its declared kind',
  (_, command, table, name, flag) => {
    const { value, says } = refusedValue(flag)!;

    it('on the command line (exit 2 with the usage), and in the configuration file', async () => {
      const cli = refusal(() => parseFlags([`--${name}`, value], table, 'the usage'));
      const [first, ...rest] = cli.split('\n');
      expect(first!.startsWith(`--${name} `), cli).toBe(true);
      expect(first!.slice(`--${name} `.length)).toMatch(says);
      expect(rest.join('\n')).toBe('\nthe usage');

      if (flag.config === false) return; // init's flags: not settings of the file it writes
      const dir = removeAfterFile(await tempDir('kinds'));
      const file = path.join(dir, 'dataapi.config.json');
      const setting = flag.number && /^\d+$/.test(value) ? Number(value) : value;
      await writeFile(file, JSON.stringify({ [command]: { [configKey(name)]: setting } }));
      useConfig(command, await loadConfig(file));
      const where = `${path.relative(process.cwd(), file)}: ${command}.${configKey(name)} `;
      const fromFile = refusal(() => parseFlags([], table, 'the usage'));
      expect(fromFile.startsWith(where), fromFile).toBe(true);
      expect(fromFile.slice(where.length)).toMatch(says);
    });

    it('its default is a value of its kind', () => {
      if (typeof flag.default === 'string') expect(valueFault(flag, flag.default)).toBeUndefined();
    });
  },
);

describe('one wording per kind', () => {
  const said = (flag: Flag, value: string) => valueFault(flag, value);
  it("says the bounds, the unit, the schemes, and never a URL's secrets", () => {
    expect(said({ type: 'string', help: '', int: { min: 1, unit: 'milliseconds' } }, '-5')).toBe(
      'must be a whole number of milliseconds, at least 1, got "-5"',
    );
    expect(said({ type: 'string', help: '', int: { min: 1, max: 100_000 } }, '1e3')).toBe(
      'must be a whole number from 1 to 100000, got "1e3"',
    );
    expect(said({ type: 'string', help: '', int: {} }, '-3')).toBeUndefined();
    expect(said({ type: 'string', help: '', int: {} }, ' 3')).toBe(
      'must be a whole number, got " 3"',
    );
    expect(said({ type: 'string', help: '', port: true }, '0')).toBeUndefined();
    expect(said({ type: 'string', help: '', day: true }, '2026-1-2')).toBe(
      'must be a day YYYY-MM-DD, got "2026-1-2"',
    );
    expect(said({ type: 'string', help: '', url: ['redis', 'rediss'] }, 'rediss://h:6380')).toBe(
      undefined,
    );
    expect(said({ type: 'string', help: '', url: ['redis', 'rediss'] }, 'http://:pw@h/?k=1')).toBe(
      'must be a redis:// or rediss:// URL, got "http://…@h/?…"',
    );
    expect(said({ type: 'string', help: '', url: ['http', 'https'] }, 'https://')).toBe(
      'must be an http:// or https:// URL, got "https://"',
    );
    const format: Flag = { type: 'string', help: '', choices: ['text', 'json', 'sarif'] };
    expect(said(format, 'jsno')).toBe(
      'must be text, json or sarif, got "jsno" (did you mean "json"?)',
    );
    expect(said(format, 'JSON')).toBe(
      'must be text, json or sarif, got "JSON" (did you mean "json"?)',
    );
    expect(said({ ...format, anyCase: true }, 'JSON')).toBeUndefined();
    // A comma list's items are its command's to check.
    expect(said({ ...format, comma: true }, 'text,xml')).toBeUndefined();
  });
});

describe('the configuration type', () => {
  it("is the tables' settings (a typo is a type error)", () => {
    const config: DataapiConfig = {
      proxy: {
        upstream: 'https://api.example.com',
        port: 4020,
        reporter: ['json'],
        severity: { 'method-path': 'warning' },
        record: 'traffic.har',
        insecure: true,
      },
    };
    const others: DataapiConfig = {
      generate: { kinds: ['client', 'mock'], typecheck: false },
      serve: { redisFailure: 'closed', logLevel: 'debug', docs: false, shutdownTimeout: 5000 },
      contract: { checks: ['status'], severity: { deprecation: 'off' }, reportDir: 'r' },
    };
    // @ts-expect-error -- not a setting of `dataapi proxy`
    const typo: DataapiConfig = { proxy: { upstrem: 'https://api.example.com' } };
    // @ts-expect-error -- not one of --redis-failure's values
    const value: DataapiConfig = { serve: { redisFailure: 'sometimes' } };
    expect([config, others, typo, value]).toHaveLength(4);
  });
});
