/**
 * The packed client (issue 14): `dataapi pack client`, `npm pack`, `npm install` of the tarball in
 * a fresh project, then its sizes: tarball, installed, and minified browser bundles (esbuild) of
 * one operation against the whole client (the reference for tree-shaking, same run).
 */
import { readdir, readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BenchContext, Section } from './lib/context.ts';
import { ensureOk, timed } from './lib/proc.ts';
import { median, type Verdict } from './lib/stats.ts';

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const rel of await readdir(dir, { recursive: true })) {
    const s = await stat(path.join(dir, rel));
    if (s.isFile()) total += s.size;
  }
  return total;
}

const ONE = `import { createCaller, getAirQuality } from '@dataapi/client';
getAirQuality(createCaller({ baseUrl: 'https://api.example.com' }), { query: { location: 'x' } }).then(console.log);\n`;
const ALL = `import { createClient } from '@dataapi/client';
createClient({ baseUrl: 'https://api.example.com' }).getAirQuality({ query: { location: 'x' } }).then(console.log);\n`;

export async function clientPackage(ctx: BenchContext): Promise<Section> {
  const out = path.join(ctx.work, 'client-package');
  const consumer = path.join(ctx.work, 'client-consumer');
  await mkdir(consumer, { recursive: true });
  const packMs: number[] = [];
  for (let i = 0; i < Math.max(1, Math.min(ctx.runs, 3)); i++) {
    ctx.log(`client package: dataapi pack client (${i + 1})`);
    const run = ensureOk(
      'dataapi pack client',
      await timed(process.execPath, ['bin/dataapi.js', 'pack', 'client', '--out', out], {
        cwd: ctx.root,
        timeoutMs: 10 * 60_000,
      }),
    );
    packMs.push(run.ms);
  }
  const packed = ensureOk(
    'npm pack',
    await timed('npm', ['pack', out, '--pack-destination', ctx.work, '--json'], { cwd: ctx.work }),
  );
  void packed;
  const tgz = (await readdir(ctx.work)).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack wrote no tarball');
  const tarball = path.join(ctx.work, tgz);
  await writeFile(
    path.join(consumer, 'package.json'),
    '{"name":"c","private":true,"type":"module"}',
  );
  ensureOk(
    'npm install',
    await timed(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      {
        cwd: consumer,
      },
    ),
  );
  const tarballBytes = (await stat(tarball)).size;
  const installedBytes = await treeBytes(path.join(consumer, 'node_modules/@dataapi/client'));
  const { build } = await import('esbuild');
  const bundle = async (name: string, source: string) => {
    await writeFile(path.join(consumer, name), source);
    const r = await build({
      entryPoints: [path.join(consumer, name)],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      absWorkingDir: consumer,
      logLevel: 'silent',
    });
    return r.outputFiles[0]!.text.length;
  };
  const one = await bundle('one.js', ONE);
  const all = await bundle('all.js', ALL);
  const readme = await readFile(path.join(out, 'README.md'), 'utf8');
  const verdicts: Verdict[] = [
    {
      target: 'client package: tarball < 100 kB',
      measured: kB(tarballBytes),
      met: tarballBytes < 100 * 1024,
    },
    {
      target: "client package: one operation's browser bundle <= 60% of the whole client's",
      measured: `${Math.round((one / all) * 100)}% (${kB(one)} vs ${kB(all)})`,
      met: one <= all * 0.6,
    },
  ];
  const body = [
    '`dataapi pack client` on the service description, `npm pack` of the folder, `npm install` of the tarball in a fresh project (offline: no dependencies), then esbuild (`platform: browser`, minified) on a file that calls one operation through its standalone function and on one that uses `createClient`.',
    '',
    '| figure | measured |',
    '| --- | ---: |',
    `| \`dataapi pack client\` (median wall) | ${Math.round(median(packMs))} ms |`,
    `| tarball (\`npm pack\`) | ${kB(tarballBytes)} |`,
    `| installed (\`node_modules/@dataapi/client\`) | ${kB(installedBytes)} |`,
    `| browser bundle, one operation (\`getAirQuality\`) | ${kB(one)} |`,
    `| browser bundle, whole client (\`createClient\`) | ${kB(all)} |`,
    `| README (generated) | ${kB(Buffer.byteLength(readme))} |`,
  ].join('\n');
  return {
    id: 'client-package',
    title: '8. The packed client (dataapi pack client)',
    body,
    verdicts,
  };
}
