/** The manifest dataapi keeps in its output folder: the content hashes that let a re-run skip formatting. */
export const MANIFEST = '.dataapi-manifest.json';

export interface Manifest {
  version: 1;
  /** Output path -> hash of its unformatted text (`raw`) and of the file as written (`out`). */
  files: Record<string, { raw: string; out: string }>;
}
