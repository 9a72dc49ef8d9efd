// Build manifest.json and descriptions.tar.xz from the extracted candidates in $SCRATCH (default /work/corpus2):
// results/<id>.json (extract.mjs + deref.mjs) and out/<id>/ (the files). Every file is checked byte for byte
// against `git show <commit>:<path>` in the fetched mirror before it is archived.
// usage: node build.mjs [outDir]   (outDir defaults to this script's parent folder)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const SCRATCH = process.env.SCRATCH ?? '/work/corpus2';
const OUT = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recs = fs
  .readdirSync(path.join(SCRATCH, 'results'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(SCRATCH, 'results', f), 'utf8')))
  .filter((r) => r.operations >= 1)
  .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const walk = (d, base = d) =>
  fs
    .readdirSync(d, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? walk(path.join(d, e.name), base)
        : [path.relative(base, path.join(d, e.name))],
    );
const descriptions = [];
for (const r of recs) {
  const gitDir = `/work/.mirror/${r.repository.replace('/', '+')}/repo`;
  const dir = path.join(SCRATCH, 'out', r.id);
  const files = walk(dir);
  for (const rel of files) {
    const repoPath = r.split ? (r.folder === '.' ? rel : `${r.folder}/${rel}`) : r.path;
    const want = execFileSync('git', ['--git-dir', gitDir, 'show', `${r.commit}:${repoPath}`], {
      maxBuffer: 1 << 30,
    });
    if (!want.equals(fs.readFileSync(path.join(dir, rel))))
      throw new Error(`${r.id}: ${rel} differs from ${r.commit}:${repoPath}`);
  }
  descriptions.push({
    id: r.id,
    repository: r.repository,
    path: r.path,
    ...(r.split ? { folder: r.folder } : {}),
    commit: r.commit,
    version: r.version,
    title: r.title,
    operations: r.operations,
    ...(r.webhooks ? { webhooks: r.webhooks } : {}),
    files: files.length,
    split: r.split,
    root: r.root,
    ...(r.split ? { copied: r.copied } : {}),
    dereferences: r.dereferences,
    ...(r.dereferences === false ? { dereferenceError: r.dereferenceError } : {}),
  });
}
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(
  path.join(OUT, 'manifest.json'),
  JSON.stringify({ generated: new Date().toISOString(), descriptions }, null, 2) + '\n',
);
execFileSync('tar', [
  '--sort=name',
  '--mtime=2026-01-01',
  '--owner=0',
  '--group=0',
  '--numeric-owner',
  '-cJf',
  path.join(OUT, 'descriptions.tar.xz'),
  '-C',
  path.join(SCRATCH, 'out'),
  ...descriptions.map((d) => d.id),
]);
const n = descriptions.length,
  v31 = descriptions.filter((d) => d.version.startsWith('3.1')).length;
const ops = descriptions.map((d) => d.operations);
console.log(
  JSON.stringify({
    count: n,
    v31,
    split: descriptions.filter((d) => d.split).length,
    dereferenceFailures: descriptions.filter((d) => !d.dereferences).length,
    minOps: Math.min(...ops),
    maxOps: Math.max(...ops),
    totalOps: ops.reduce((a, b) => a + b, 0),
    archiveBytes: fs.statSync(path.join(OUT, 'descriptions.tar.xz')).size,
  }),
);
