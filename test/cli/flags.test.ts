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
import { parseFlags } from '../../scripts/args.ts';
import { useConfig } from '../../scripts/config/active.ts';
import type { DataapiConfig } from '../../scripts/config/define.ts';
import { loadConfig } from '../../scripts/config/load.ts';
import { configKey, type Flag, type FlagTable } from '../../scripts/flags/declare.ts';
import { FLAG_TABLES } from '../../scripts/flags/tables.ts';
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
