/** `dataapi init`: a configuration file for a description in an existing repository (and, asked, the CI workflow). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { findConfig } from '../config/load.ts';
import { ciWorkflow } from '../init/workflow.ts';
import { INIT_FLAGS } from '../flags/init.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi init [--spec FILE|URL] [--output DIR] [--format ts|mjs|js|json] [--ci] [--force]

Writes dataapi.config.<format> here: the description, the generated tree's folder and the contract
run's defaults, which every command then reads (flags still win).

${flagLines(INIT_FLAGS)}

Exit codes: 0 written, 2 bad input (flags, no description found, a file exists without --force).`;

const CANDIDATES = [
  'openapi.yaml',
  'openapi.yml',
  'openapi.json',
  'spec/openapi.yaml',
  'spec/openapi.json',
  'swagger.yaml',
  'swagger.json',
  'api/openapi.yaml',
  'docs/openapi.yaml',
];

function configText(format: string, spec: string, output: string): string {
  const settings = {
    spec,
    output,
    contract: { reporter: ['console', 'junit', 'html'], reportDir: 'reports' },
  };
  if (format === 'json') return `${JSON.stringify(settings, null, 2)}\n`;
  const body = `defineConfig(${JSON.stringify(settings, null, 2).replace(/"([A-Za-z]\w*)":/g, '$1:')})`;
  // Only the TypeScript file imports defineConfig: a plain JavaScript file needs no package to load.
  return format === 'ts'
    ? `import { defineConfig } from 'dataapi';\n\nexport default ${body};\n`
    : `/** @type {import('dataapi').DataapiConfig} */\nexport default ${body.replace(/^defineConfig\((.*)\)$/s, '$1')};\n`;
}

/** TypeScript where the project is TypeScript and tsx can load the file; else an ES module. */
function defaultFormat(): string {
  if (!existsSync('tsconfig.json')) return 'mjs';
  try {
    createRequire(path.resolve('package.json')).resolve('tsx/esm/api');
    return 'ts';
  } catch {
    return 'mjs';
  }
}

async function writeNew(file: string, text: string, force: boolean): Promise<void> {
  if (existsSync(file) && !force)
    throw new UsageError(`${file} exists: pass --force to replace it`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stdout.write(`dataapi init: wrote ${file}\n`);
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values } = parseFlags(argv, INIT_FLAGS, usage);
      const force = values.force;
      const format = values.format ?? defaultFormat();
      const spec = values.spec ?? CANDIDATES.find((f) => existsSync(f));
      if (spec === undefined)
        throw new UsageError(
          `no description found here (looked for ${CANDIDATES.join(', ')}): pass --spec FILE|URL`,
        );
      if (!/^https?:\/\//i.test(spec) && !existsSync(spec))
        throw new UsageError(`--spec ${spec}: no such file`);
      const existing = findConfig();
      if (existing && !force && path.basename(existing) !== `dataapi.config.${format}`)
        throw new UsageError(
          `${path.basename(existing)} exists: pass --force to write dataapi.config.${format} beside it (the first found is read)`,
        );
      const file = `dataapi.config.${format}`;
      const prettier = await import('prettier');
      await writeNew(
        file,
        await prettier.format(configText(format, spec, values.output), {
          ...((await prettier.resolveConfig(file)) ?? {}),
          filepath: file,
        }),
        force,
      );
      if (values.ci) await writeNew('.github/workflows/dataapi.yml', ciWorkflow(), force);
      process.stdout.write(
        `Next: npx dataapi generate, then npx dataapi contract (against the embedded mock)\n`,
      );
      return 0;
    }),
};
