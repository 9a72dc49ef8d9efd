/**
 * A description given by URL (`--spec https://...`): fetched once per run, written under
 * node_modules/.cache/dataapi/remote/ so that the loader reads it as it reads a file, and named by
 * its URL in every message.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const isUrl = (spec: string) => /^https?:\/\//i.test(spec);

/** The URL without credentials or query (a token in it must not reach a message). */
export function shownUrl(spec: string): string {
  try {
    const url = new URL(spec);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return spec;
  }
}

export class RemoteSpecError extends Error {}

/** The text at the URL, and the local file it was written to. */
export async function fetchSpec(spec: string): Promise<{ file: string; text: string }> {
  let response: Response;
  try {
    response = await fetch(spec, {
      headers: { accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' },
      redirect: 'follow',
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new RemoteSpecError(
      `cannot fetch the description: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }
  if (!response.ok)
    throw new RemoteSpecError(`cannot fetch the description: HTTP ${response.status}`);
  const text = await response.text();
  const url = new URL(spec);
  const name = path.basename(url.pathname) || 'openapi';
  const key = createHash('sha256').update(spec).digest('hex').slice(0, 12);
  const dir = path.join(process.cwd(), 'node_modules', '.cache', 'dataapi', 'remote', key);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, text);
  return { file, text };
}
