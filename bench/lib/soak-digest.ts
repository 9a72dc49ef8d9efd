/** What the soak run's deployment and load generator both compute: digests of bodies and headers. */
import { createHash } from 'node:crypto';
import http from 'node:http';

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

/**
 * One GET of the soak's deployment through `agent`; resolves true when the body or the end-to-end
 * headers are not those the deployment sent (its x-soak-* digests). The body is hashed as it
 * comes: no copy of the whole body (the load shares the proxy's cores).
 */
export const alteredGet = (url: string, agent: http.Agent) =>
  new Promise<boolean>((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const body = createHash('sha256');
        res.on('data', (c: Buffer) => body.update(c));
        res.on('end', () => {
          const pairs: [string, string][] = [];
          for (let k = 0; k < res.rawHeaders.length; k += 2)
            pairs.push([res.rawHeaders[k]!, res.rawHeaders[k + 1]!]);
          resolve(
            body.digest('hex') !== res.headers['x-soak-body'] ||
              headerDigest(pairs) !== res.headers['x-soak-headers'],
          );
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
