/** Log lines that could repeat on every request (a store that is down) at most once per period. */
import type { FastifyBaseLogger } from 'fastify';

export function throttledLog(periodMs: number): (log: FastifyBaseLogger, message: string) => void {
  let last = 0;
  let skipped = 0;
  return (log, message) => {
    const now = Date.now();
    if (now - last < periodMs) {
      skipped += 1;
      return;
    }
    log.warn(skipped > 0 ? `${message} (${skipped} more since the last warning)` : message);
    last = now;
    skipped = 0;
  };
}
