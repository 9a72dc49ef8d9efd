#!/usr/bin/env node
// The toolkit is TypeScript. `generate` runs from a bundle without a loader (see
// scripts/generate-bundle.js); every other command also loads generated TypeScript and runs
// through tsx.
const args = process.argv.slice(2);
let command;
if (args[0] === 'generate' && !process.env.DATAAPI_NO_BUNDLE) {
  try {
    command = (await (await import('../scripts/generate-bundle.js')).loadGenerateCommand()).command;
  } catch {
    command = undefined; // no bundler here: the loader path below works the same, only slower
  }
}
if (command) {
  process.exitCode =
    args.includes('--help') || args.includes('-h')
      ? (process.stdout.write(`${command.usage}\n`), 0)
      : await command.run(args.slice(1));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../scripts/cli.ts');
  process.exitCode = await main(args);
}
