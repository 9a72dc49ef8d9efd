/**
 * The manifest dataapi keeps in its output folder (`.dataapi-manifest.json`): for each file, the
 * hash of its unformatted text and of the file as written. A re-run whose unformatted text is
 * unchanged takes the formatted file from the folder instead of running prettier: the same bytes.
 */
import { createHash } from 'node:crypto';
import type { FormatCache } from '../emit/format.ts';
import type { RenderedFile } from '../emit/render.ts';

export const MANIFEST = '.dataapi-manifest.json';

export interface Manifest {
  version: 1;
  /** Output path -> hash of its unformatted text (`raw`) and of the file as written (`out`). */
  files: Record<string, { raw: string; out: string }>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function parseManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Manifest;
    return parsed.version === 1 && typeof parsed.files === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The last run's manifest as a format cache, and this run's manifest as it fills. */
export class ManifestCache implements FormatCache {
  private readonly previous: Manifest | undefined;
  private readonly entries: Manifest['files'] = {};
  /** Path -> sha256 of the unformatted text, and of the text written. */
  private readonly raws = new Map<string, string>();
  private readonly outs = new Map<string, { content: string; sha: string }>();

  /** `existing`: the output folder's files as they are now (path -> content). */
  constructor(private readonly existing: Map<string, string>) {
    this.previous = parseManifest(existing.get(MANIFEST));
  }

  /** The manifest's hashes are a sha256's first 32 hex digits. */
  private rawHash(file: RenderedFile): string {
    let raw = this.raws.get(file.path);
    if (raw === undefined) this.raws.set(file.path, (raw = sha256(file.content)));
    return raw;
  }

  private outHash(path: string, content: string, sha = sha256(content)): string {
    this.outs.set(path, { content, sha });
    return sha.slice(0, 32);
  }

  reuse(file: RenderedFile): string | undefined {
    const known = this.previous?.files[file.path];
    if (!known || known.raw !== this.rawHash(file).slice(0, 32)) return undefined;
    const text = this.existing.get(file.path);
    if (text === undefined || this.outHash(file.path, text) !== known.out) return undefined;
    this.entries[file.path] = known;
    return text;
  }

  record(file: RenderedFile, formatted: string): void {
    const raw = this.rawHash(file);
    const same = formatted === file.content;
    const out = this.outHash(file.path, formatted, same ? raw : undefined);
    this.entries[file.path] = { raw: raw.slice(0, 32), out };
  }

  /** The sha256 of a file as written, when this run has hashed that content already. */
  sha(file: { path: string; content: string }): string | undefined {
    const known = this.outs.get(file.path);
    return known && known.content === file.content ? known.sha : undefined;
  }

  /** A file kept from the folder as it is (`--kinds`): its entry stays. */
  keep(rel: string): void {
    const entry = this.previous?.files[rel];
    if (entry) this.entries[rel] = entry;
  }

  /** This run's manifest, as the file written beside the output. */
  file(): RenderedFile {
    const files = Object.fromEntries(
      Object.entries(this.entries).sort(([a], [b]) => a.localeCompare(b, 'en')),
    );
    const manifest: Manifest = { version: 1, files };
    return { path: MANIFEST, content: JSON.stringify(manifest, null, 2) + '\n' };
  }
}
