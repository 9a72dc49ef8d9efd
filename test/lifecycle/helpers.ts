/** The life-cycle fixture and variants of it, each test in its own temporary folder. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const NEWS = path.join(root, 'test/fixtures/lifecycle/news.yaml');
export const V1 = ['paths', '/v1/news', 'get'];
export const V2 = ['paths', '/v2/news', 'get'];

export function tempDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `dataapi-${name}-`));
}

/** Writes a variant of the fixture changed through the yaml Document API into `dir`. */
export function variant(
  dir: string,
  name: string,
  edit: (doc: ReturnType<typeof parseDocument>) => void,
): string {
  const doc = parseDocument(readFileSync(NEWS, 'utf8'));
  edit(doc);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, doc.toString());
  return file;
}
