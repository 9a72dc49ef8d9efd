/** The `dataapi` command line: parses the command name and hands over to scripts/commands/. */
import type { Command } from './command.ts';

export type { Command };

/** Loaded on demand, so `dataapi mock` does not pay for the generator and the reverse. */
const COMMANDS: Record<string, () => Promise<{ command: Command }>> = {
  generate: () => import('./commands/generate.ts'),
  mock: () => import('./commands/mock.ts'),
  serve: () => import('./commands/serve.ts'),
  contract: () => import('./commands/contract.ts'),
  start: () => import('./commands/start.ts'),
  lint: () => import('./commands/lint.ts'),
  scaffold: () => import('./commands/scaffold.ts'),
  bench: () => import('./commands/bench.ts'),
  diff: () => import('./commands/diff.ts'),
  pack: () => import('./commands/pack.ts'),
  proxy: () => import('./commands/proxy.ts'),
};

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
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const lines = (await available()).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
    process.stdout.write(
      `Usage: dataapi <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun \`dataapi <command> --help\` for a command's options.\n`,
    );
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { createRequire } = await import('node:module');
    process.stdout.write(
      `${(createRequire(import.meta.url)('../package.json') as { version: string }).version}\n`,
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
  return command.run(rest);
}
