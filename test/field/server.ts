/**
 * What the field panel's servers (test/field/) share: a running server with the description it
 * is tested against, a free port, and polling until a condition holds.
 */
import { createServer } from 'node:net';

/** A server of the field panel, started by its test: where it listens and its own description. */
export interface FieldServer {
  name: string;
  baseUrl: string;
  /** Path of the description file, written in the server's temporary folder. */
  spec: string;
  key?: string;
  close(): Promise<void>;
}

/** A port free on 127.0.0.1 now (bound to port 0, read, closed: another process may take it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` every 50 ms until it holds; throws naming `what` once `limitMs` has passed. */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  limitMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
