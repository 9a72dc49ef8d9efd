/**
 * Key sources of a real deployment: a list of accepted keys, each given as the key itself or as
 * `sha256:<64 hex digits>` (the SHA-256 of the key, so a keys file need not hold the secret). The
 * presented key is hashed before it is looked up, so how long a lookup takes says nothing about
 * any accepted key; the match itself is confirmed with a constant-time comparison.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { VerifyKey } from './auth.ts';

/** A key source that cannot be used; the message never contains a key. */
export class KeySourceError extends Error {
  override name = 'KeySourceError';
}

const HASHED = /^sha256:([0-9a-f]{64})$/i;

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * Parses key lines (a keys file or DATAAPI_KEYS): one key or `sha256:<hex>` per line; blank lines
 * and lines starting with `#` are skipped. Returns the SHA-256 digests.
 */
export function parseKeyLines(text: string, origin: string): Buffer[] {
  const out: Buffer[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (/^sha256:/i.test(line)) {
      const m = HASHED.exec(line);
      if (!m?.[1]) {
        throw new KeySourceError(
          `${origin}:${i + 1}: a hashed key is sha256: followed by 64 hex digits`,
        );
      }
      out.push(Buffer.from(m[1], 'hex'));
    } else out.push(digest(line));
  });
  return out;
}

/** A verifier that accepts exactly the given keys (see parseKeyLines for the line format). */
export function keysVerifier(lines: string[] | Buffer[]): VerifyKey {
  const digests =
    typeof lines[0] === 'string'
      ? parseKeyLines((lines as string[]).join('\n'), 'keys')
      : (lines as Buffer[]);
  if (digests.length === 0) throw new KeySourceError('the key list is empty');
  const byHex = new Map(digests.map((d) => [d.toString('hex'), d]));
  const miss = Buffer.alloc(32);
  return (key) => {
    const d = digest(key);
    const stored = byHex.get(d.toString('hex'));
    // Compare even on a miss, so both paths do the same work.
    return timingSafeEqual(d, stored ?? miss) && stored !== undefined;
  };
}

/** The keys of a keys file; a missing, unreadable or empty file is a KeySourceError. */
export async function readKeysFile(file: string): Promise<Buffer[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new KeySourceError(`cannot read the keys file ${file}${code ? ` (${code})` : ''}`);
  }
  const keys = parseKeyLines(text, file);
  if (keys.length === 0) throw new KeySourceError(`the keys file ${file} has no keys`);
  return keys;
}

/** The keys of DATAAPI_KEYS (separated by commas or newlines), or undefined when it is unset. */
export function keysFromEnv(value: string | undefined): Buffer[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const keys = parseKeyLines(value.replace(/,/g, '\n'), 'DATAAPI_KEYS');
  if (keys.length === 0) throw new KeySourceError('DATAAPI_KEYS has no keys');
  return keys;
}
