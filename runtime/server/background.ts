/**
 * Work a server does after it listens, one piece per turn of the event loop: requests are
 * answered between pieces, so a large description's checks do not hold up its start. Stops when
 * the server closes.
 */
import type { FastifyInstance } from 'fastify';

export function afterListening<T>(
  app: FastifyInstance,
  items: readonly T[],
  work: (item: T) => unknown,
  done?: () => void,
): void {
  let closed = false;
  app.addHook('onClose', async () => {
    closed = true;
  });
  app.addHook('onListen', async () => {
    let next = 0;
    const step = () => {
      if (closed) return;
      if (next >= items.length) return done?.();
      try {
        work(items[next++] as T);
      } catch {
        // Each piece reports its own findings; one that throws must not stop the others.
      }
      setImmediate(step);
    };
    setImmediate(step);
  });
}
