/** The `dataapi` command line: parses the command name and hands over to scripts/commands/. */
import type { Command } from './command.ts';
import { UsageError } from './args-error.ts';
import { useConfig } from './config/active.ts';

export type { Command };

/** Loaded on demand, so `dataapi mock` does not pay for the generator and the reverse; the
 * summaries are here so that `dataapi --help` loads none of them. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ command: Command }> }> = {
  generate: {
    summary: 'generate types, client, server stubs, mock and contract tests from the spec',
    load: () => import('./commands/generate.ts'),
  },
  mock: {
    summary: 'serve the mock server (examples, samples, scenarios) on a port',
    load: () => import('./commands/mock.ts'),
  },
  serve: {
    summary: 'run the service on the generated stubs and your handlers (keys, limits, /docs)',
    load: () => import('./commands/serve.ts'),
  },
  contract: {
    summary: 'run the contract tests against a deployment (--base-url) or the embedded mock',
    load: () => import('./commands/contract.ts'),
  },
  start: {
    summary: 'generate, start the embedded mock and run the contract suite against it',
    load: () => import('./commands/start.ts'),
  },
  lint: {
    summary: "check the catalogue's rules (categories, envelopes, codes, examples, previews)",
    load: () => import('./commands/lint.ts'),
  },
  scaffold: {
    summary: 'add an operation to the spec with its preview, examples and handler, then regenerate',
    load: () => import('./commands/scaffold.ts'),
  },
  diff: {
    summary: 'breaking-change gate: compare the spec with a file or a git revision',
    load: () => import('./commands/diff.ts'),
  },
  pack: {
    summary: 'write the typed client as an npm package folder (ESM + CJS + .d.ts)',
    load: () => import('./commands/pack.ts'),
  },
  proxy: {
    summary: 'a validation proxy in front of a deployment: judges live traffic by the contract',
    load: () => import('./commands/proxy.ts'),
  },
  report: {
    summary: 'merge the results of several runs (CI shards, proxies) into one set of reports',
    load: () => import('./commands/report.ts'),
  },
  init: {
    summary: 'write a dataapi.config file (and the CI workflow with --ci)',
    load: () => import('./commands/init.ts'),
  },
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
    const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
    process.stdout.write(
      `Usage: dataapi <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nOptions of every command:\n  --config FILE  the configuration file (default: dataapi.config.{ts,mts,js,mjs,json} here)\n  --help, -h     the command's options\n  --version, -v  the toolkit's version\n\nRun \`dataapi <command> --help\` for a command's options.\n`,
    );
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    const { toolkitVersion } = await import('./version.ts');
    process.stdout.write(`${toolkitVersion()}\n`);
    return 0;
  }
  const load = COMMANDS[name]?.load;
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
