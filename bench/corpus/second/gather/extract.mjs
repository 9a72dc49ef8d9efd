// Extract one candidate description byte for byte from a fetched bare mirror at its HEAD commit.
// usage: node extract.mjs <owner/repo> <root path in repo> [short]
// Writes /work/corpus2/out/<id>/... and /work/corpus2/results/<id>.json
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
const require = createRequire('/work/main/package.json');
const YAML = require('yaml');
const SCRATCH = process.env.SCRATCH ?? '/work/corpus2';
const [repo, rootPath, short] = process.argv.slice(2);
const [owner, name] = repo.split('/');
const gitDir = `/work/.mirror/${owner}+${name}/repo`;
const git = (...a) => execFileSync('git', ['--git-dir', gitDir, ...a], { maxBuffer: 1 << 30 });
const commit = process.env.COMMIT ?? git('rev-parse', 'HEAD').toString().trim();
const id = [owner, name, short]
  .filter(Boolean)
  .join('-')
  .toLowerCase()
  .replace(/[^a-z0-9._-]+/g, '-');
const show = (p) => git('show', `${commit}:${p}`);
const parse = (p, buf) => {
  const text = buf.toString('utf8');
  if (/\.json$/i.test(p)) return JSON.parse(text);
  return YAML.parse(text, { maxAliasCount: -1, uniqueKeys: false, strict: false });
};
const fail = (msg) => {
  console.log(JSON.stringify({ id, repo, error: msg }));
  process.exit(1);
};

// closure of relative $refs
const files = new Map(); // repo path -> Buffer
const external = new Set();
const queue = [rootPath];
while (queue.length) {
  const p = queue.shift();
  if (files.has(p)) continue;
  let buf;
  try {
    buf = show(p);
  } catch {
    fail(`missing file ${p}`);
  }
  files.set(p, buf);
  if (!/\.(ya?ml|json)$/i.test(p)) continue;
  let doc;
  try {
    doc = parse(p, buf);
  } catch (e) {
    if (p === rootPath) fail(`parse: ${String(e.message).split('\n')[0]}`);
    continue;
  }
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') {
        if (/^[a-z][a-z0-9+.-]*:/i.test(x)) {
          external.add(x);
          continue;
        }
        const f = decodeURIComponent(x.split('#')[0]);
        if (f) queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(p), f)));
      } else walk(x);
    }
  };
  walk(doc);
}
if (external.size) fail(`external refs: ${[...external].slice(0, 3).join(', ')}`);
if ([...files.keys()].some((p) => p.startsWith('../'))) fail('ref outside repository');

const outDir = path.join(SCRATCH, 'out', id);
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const split = files.size > 1;
let folder, root, copied;
if (!split) {
  root = path.posix.basename(rootPath);
  fs.writeFileSync(path.join(outDir, root), files.get(rootPath));
  copied = 'file';
} else {
  const dirs = [...files.keys()].map((p) => path.posix.dirname(p).split('/'));
  let common = dirs[0];
  for (const d of dirs) {
    let i = 0;
    while (i < common.length && common[i] === d[i]) i++;
    common = common.slice(0, i);
  }
  folder = common.join('/') || '.';
  // whole subtree of the folder when it is a dedicated folder of moderate size, else just the reached files
  let subtree = [];
  if (folder !== '.') {
    subtree = git('ls-tree', '-r', '-l', commit, '--', folder + '/')
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [meta, p] = l.split('\t');
        return { p, size: Number(meta.trim().split(/\s+/)[3]) || 0, type: meta.split(/\s+/)[1] };
      })
      .filter((e) => e.type === 'blob');
  }
  const total = subtree.reduce((s, e) => s + e.size, 0);
  const useSubtree = folder !== '.' && subtree.length <= 600 && total <= 8e6;
  const list = useSubtree ? subtree.map((e) => e.p) : [...files.keys()];
  copied = useSubtree ? 'subtree' : 'closure';
  for (const p of list) {
    const rel = folder === '.' ? p : p.slice(folder.length + 1);
    const dest = path.join(outDir, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, files.get(p) ?? show(p));
  }
  root = folder === '.' ? rootPath : rootPath.slice(folder.length + 1);
}

// analysis
const doc = parse(rootPath, files.get(rootPath));
const version = String(doc?.openapi ?? doc?.swagger ?? '');
if (!/^3\.[01]\./.test(version)) fail(`version ${version || 'none'}`);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// operations in path items, following a path item's own $ref into another file
const resolvePathItem = (item, from) => {
  if (item && typeof item.$ref === 'string' && !item.$ref.startsWith('#')) {
    const [f, frag] = item.$ref.split('#');
    const p = path.posix.normalize(
      path.posix.join(path.posix.dirname(from), decodeURIComponent(f)),
    );
    let d = parse(p, files.get(p));
    for (const seg of (frag ?? '').split('/').filter(Boolean))
      d = d?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    return resolvePathItem(d, p);
  }
  if (item && typeof item.$ref === 'string' && item.$ref.startsWith('#/')) {
    let d = doc;
    for (const seg of item.$ref.slice(2).split('/'))
      d = d?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    return d;
  }
  return item;
};
const count = (obj) => {
  let n = 0;
  for (const item of Object.values(obj ?? {})) {
    const it = resolvePathItem(item, rootPath);
    for (const m of METHODS) if (it && typeof it === 'object' && it[m]) n++;
  }
  return n;
};
let paths = doc.paths;
if (paths && typeof paths.$ref === 'string') paths = resolvePathItem(paths, rootPath);
const operations = count(paths);
const webhooks = count(doc.webhooks);
let outFiles = 0;
const walkCount = (d) => {
  for (const e of fs.readdirSync(d, { withFileTypes: true }))
    e.isDirectory() ? walkCount(path.join(d, e.name)) : outFiles++;
};
walkCount(outDir);
const rec = {
  id,
  repository: repo,
  path: rootPath,
  ...(split ? { folder } : {}),
  commit,
  version,
  title: String(doc.info?.title ?? ''),
  operations,
  webhooks,
  files: outFiles,
  split,
  root: split ? root : root,
  copied,
  reached: files.size,
};
fs.writeFileSync(path.join(SCRATCH, 'results', `${id}.json`), JSON.stringify(rec, null, 2));
console.log(JSON.stringify(rec));
