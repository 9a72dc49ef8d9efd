#!/usr/bin/env node
// The `dataapi` command: the compiled command line in dist/ (`npm run build`), on plain Node.
let main;
try {
  ({ main } = await import('../dist/scripts/cli.js'));
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/scripts/cli.js'))
    throw err;
  process.stderr.write(
    "dataapi: the command line is not built (no dist/scripts/cli.js): run `npm run build` in the toolkit's folder\n",
  );
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2));
