// `npm test`'s checks before the suite, at once: the import rules, the drift check, lint, prettier
// and tsc are independent of each other (each ran after the other, 43 s; tsc and prettier alone
// are 37 s of that, each on one core). Each one's output is printed whole when it ends, in this
// order; the exit code is 1 when any failed, naming it. Plain JavaScript, as build.js.
//
//   node scripts/checks.js
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => path.join(root, 'node_modules', pkg, file);
const CHECKS = [
  ['imports', ['scripts/check-imports.js']],
  ['drift', ['bin/dataapi.js', 'generate', '--check']],
  ['lint', ['bin/dataapi.js', 'lint']],
  // prettier and tsc keep what they learnt in node_modules/.cache (by content; a fresh clone has
  // none): unchanged files are not formatted or checked again, 62 s of CPU -> about 10.
  [
    'prettier',
    [
      bin('prettier', 'bin/prettier.cjs'),
      '--check',
      '.',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      'node_modules/.cache/prettier/checks.json',
    ],
  ],
  [
    'tsc',
    [
      bin('typescript', 'bin/tsc'),
      '--noEmit',
      '-p',
      'tsconfig.json',
      '--incremental',
      '--tsBuildInfoFile',
      'node_modules/.cache/dataapi-checks/tsconfig.tsbuildinfo',
    ],
  ],
];

function run([name, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ name, args, code: 1, output: `${output}${e.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, args, code: code ?? 1, signal, output }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const r of results) {
  process.stdout.write(
    `> ${r.name}: node ${r.args.map((a) => path.relative(root, a) || a).join(' ')}\n`,
  );
  process.stdout.write(r.output.endsWith('\n') || !r.output ? r.output : `${r.output}\n`);
}
const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) {
  process.stderr.write(
    `checks failed: ${failed.map((r) => `${r.name} (exit ${r.signal ?? r.code})`).join(', ')}\n`,
  );
  process.exit(1);
}
