/** What the soak run's deployment and load generator both compute: digests of bodies and headers. */
import { createHash } from 'node:crypto';

export const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The header lines a client must see as sent (hop-by-hop ones and Date aside), as one digest. */
export function headerDigest(pairs: [string, string][]): string {
  const skip = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);
  return sha(
    pairs
      .filter(([k]) => !skip.has(k.toLowerCase()) && !k.toLowerCase().startsWith('x-soak-'))
      .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
      .sort()
      .join('\n'),
  );
}
