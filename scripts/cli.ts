/** The `dataapi` command line: parses the command name and hands over to scripts/commands/. */
import type { Command } from './command.ts';
import { UsageError } from './args-error.ts';
import { useConfig } from './config/active.ts';

export type { Command };

/** The toolkit's package.json, from the sources (scripts/) and from dist/scripts/ alike. */
const PACKAGE_JSON = import.meta.url.includes('/dist/scripts/')
  ? '../../package.json'
  : '../package.json';

/** Loaded on demand, so `dataapi mock` does not pay for the generator and the reverse. */
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  generate: () => import('./commands/generate.ts'),
  mock: () => import('./commands/mock.ts'),
  serve: () => import('./commands/serve.ts'),
  contract: () => import('./commands/contract.ts'),
  start: () => import('./commands/start.ts'),
  lint: () => import('./commands/lint.ts'),
  scaffold: () => import('./commands/scaffold.ts'),
  diff: () => import('./commands/diff.ts'),
  pack: () => import('./commands/pack.ts'),
  init: () => import('./commands/init.ts'),
};

/** `--config FILE` may stand anywhere on the line: taken out before the command parses its flags. */
function takeConfigFlag(argv: string[]): { argv: string[]; config?: string } {
  const rest: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--config') {
      config = argv[++i];
      if (config === undefined) throw new UsageError('--config needs a value (--config FILE)');
    } else if (arg.startsWith('--config=')) config = arg.slice('--config='.length);
    else rest.push(arg);
  }
  return config === undefined ? { argv: rest } : { argv: rest, config };
}

async function available(): Promise<[string, Command][]> {
  const out: [string, Command][] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    try {
      out.push([name, (await load()).command]);
    } catch {
      // a command whose module is not there yet is simply not listed
    }
  }
  return out;
}

export async function main(argv: string[]): Promise<number> {
  let config: string | undefined;
  try {
    ({ argv, config } = takeConfigFlag(argv));
  } catch (err) {
    process.stderr.write(`dataapi: ${(err as Error).message}\n`);
    return 2;
  }
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const lines = (await available()).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
    process.stdout.write(
      `Usage: dataapi <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nOptions of every command:\n  --config FILE  the configuration file (default: dataapi.config.{ts,mts,js,mjs,json} here)\n  --help, -h     the command's options\n  --version, -v  the toolkit's version\n\nRun \`dataapi <command> --help\` for a command's options.\n`,
    );
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    process.stdout.write(
      `${(createRequire(import.meta.url)(PACKAGE_JSON) as { version: string }).version}\n`,
    );
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(
      `dataapi: unknown command ${JSON.stringify(name)}. Run \`dataapi --help\` for the list.\n`,
    );
    return 2;
  }
  const { command } = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  if (name !== 'init') {
    try {
      const { loadConfig } = await import('./config/load.ts');
      useConfig(name, await loadConfig(config));
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      process.stderr.write(`dataapi: ${err.message}\n`);
      return 2;
    }
  }
  return command.run(rest);
}
