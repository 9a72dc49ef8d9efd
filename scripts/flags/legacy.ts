/**
 * The parseArgs options of a command not yet declared as a flag table, as one (path flags and the
 * top-level spec/output as they were listed before the tables). Goes once every command has one.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Flag, FlagTable } from './declare.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

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
const SPEC_COMMANDS = new Set(['generate', 'lint', 'diff', 'pack', 'scaffold', 'serve']);
const OUTPUT_FLAG: Record<string, string> = {
  generate: 'out',
  scaffold: 'out',
  mock: 'dir',
  serve: 'dir',
  contract: 'dir',
  start: 'dir',
  report: 'dir',
};

export function legacyTable(options: Options, command: string | undefined): FlagTable {
  const table: Record<string, Flag> = {};
  for (const [name, o] of Object.entries(options)) {
    const top =
      name === 'spec' && command && SPEC_COMMANDS.has(command)
        ? 'spec'
        : command && OUTPUT_FLAG[command] === name
          ? 'output'
          : undefined;
    table[name] = {
      type: o.type === 'boolean' ? 'boolean' : o.multiple ? 'list' : 'string',
      help: '',
      ...(o.default !== undefined ? { default: o.default as Flag['default'] } : {}),
      ...(PATH_FLAGS.has(name) ? { path: true } : {}),
      ...(top ? { top } : {}),
      // Refused in the file before: their positive settings were not flags.
      ...(name.startsWith('no-') ? { config: false } : {}),
    };
  }
  return table;
}
