/**
 * Imports every generated `.ts` module under a folder, for test/generator/hostile.test.ts.
 * The hostile description's strings try to set `globalThis.__dataapiPwned` or exit the process
 * with code 7; this prints one JSON line saying what was imported and whether the canary moved.
 * Contract-test files need the vitest runner: importing them evaluates their module body (where
 * an injection would run) up to the suite call, which then fails for want of a runner.
 * Usage: node --import tsx test/generator/import-all.ts <dir>
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.resolve(process.argv[2] ?? '.');
const files = (await readdir(dir, { recursive: true }))
  .filter((f) => /\.(ts|mts)$/.test(f) && !f.endsWith('.d.ts'))
  .sort();
// Never let an injected `process.exit(7)` pass for a clean run.
process.on('exit', (code) => {
  if (code !== 0) process.stderr.write(`import-all: process exiting with ${code}\n`);
});
const imported: string[] = [];
const failed: { file: string; error: string }[] = [];
/** Test files whose body ran and then called into vitest, which has no runner here. */
const needRunner: string[] = [];
for (const rel of files) {
  try {
    await import(pathToFileURL(path.join(dir, rel)).href);
    imported.push(rel.split(path.sep).join('/'));
  } catch (err) {
    const stack = String((err as Error).stack ?? '');
    const viaBody = stack.includes(path.join(dir, rel)) && stack.includes('@vitest/runner');
    if (rel.endsWith('.test.ts') && viaBody) {
      needRunner.push(rel.split(path.sep).join('/'));
      continue;
    }
    failed.push({
      file: rel.split(path.sep).join('/'),
      error: String((err as Error).message ?? err).slice(0, 300),
    });
  }
}
const canary = (globalThis as { __dataapiPwned?: unknown }).__dataapiPwned;
process.stdout.write(
  JSON.stringify({
    imported,
    needRunner,
    failed,
    pwned: canary === undefined ? null : String(canary),
  }) + '\n',
);
process.exit(0);
