/**
 * Every command's --help as a newcomer reads it: each flag of its usage line described on a line
 * of its own, and an exit-codes line; `dataapi --help` lists --version. The usage texts are read
 * from the command modules (what `dataapi <command> --help` prints), the top-level help from a run.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../generator/root.ts';

const COMMANDS = [
  'generate',
  'mock',
  'serve',
  'contract',
  'start',
  'lint',
  'scaffold',
  'diff',
  'pack',
  'init',
  'proxy',
  'report',
];

describe('--help', () => {
  it.each(COMMANDS)(
    'dataapi %s --help describes every flag of its usage line and its exit codes',
    async (name) => {
      const { command } = (await import(`../../scripts/commands/${name}.ts`)) as {
        command: { usage: string };
      };
      const usage = command.usage;
      const synopsis = usage.slice(0, usage.indexOf('\n\n'));
      const flags = [...new Set([...synopsis.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]))];
      const undescribed = flags.filter(
        (flag) => !new RegExp(`^ +(?:-\\w, )?${flag}\\b`, 'm').test(usage.slice(synopsis.length)),
      );
      expect(undescribed).toEqual([]);
      expect(usage).toMatch(/^Exit codes: 0 /m);
    },
  );

  it('dataapi --help lists --version and --help', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.join(PROJECT_ROOT, 'bin/dataapi.js'),
      '--help',
    ]);
    expect(stdout).toMatch(/^ +--version, -v +/m);
    expect(stdout).toMatch(/^ +--help, -h +/m);
  });
});
