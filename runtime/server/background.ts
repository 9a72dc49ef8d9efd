/**
 * Work a server does after it listens, one piece per turn of the event loop: requests are
 * answered between pieces, so a large description's checks do not hold up its start. The work
 * begins once the first request has been answered (or after a quiet moment without one), and a
 * piece waits while a request is being answered: GitHub's mock answered its first request half a
 * second later when pieces ran between that request's steps. Stops when the server closes.
 */
import type { FastifyInstance } from 'fastify';

/** Requests being answered, per app: the background gives way to them. */
const busy = new WeakMap<FastifyInstance, { inFlight: number; waiting: (() => void)[] }>();

/** The app's count of requests in flight (hooks added once per app). */
function trafficOf(app: FastifyInstance) {
  let traffic = busy.get(app);
  if (traffic) return traffic;
  const t = { inFlight: 0, waiting: [] as (() => void)[] };
  busy.set(app, (traffic = t));
  // Each request counted once, and let go once (an abort may be followed by its response's end).
  const counted = new WeakSet<object>();
  const finished = (request: object) => {
    if (!counted.delete(request)) return;
    t.inFlight -= 1;
    if (t.inFlight > 0) return;
    for (const resume of t.waiting.splice(0)) setImmediate(resume);
  };
  // Not async: no promise per request (onResponse and onRequestAbort each end one request).
  app.addHook('onRequest', (request, _reply, done) => {
    counted.add(request);
    t.inFlight += 1;
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    finished(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    finished(request);
    done();
  });
  return traffic;
}

/** How long after listening the work begins when no request comes. */
const QUIET_MS = 500;

export function afterListening<T>(
  app: FastifyInstance,
  items: readonly T[],
  work: (item: T) => unknown,
  done?: () => void,
): void {
  let closed = false;
  const traffic = trafficOf(app);
  app.addHook('onClose', async () => {
    closed = true;
  });
  app.addHook('onListen', async () => {
    let next = 0;
    const step = () => {
      if (closed) return;
      if (next >= items.length) return done?.();
      if (traffic.inFlight > 0) {
        traffic.waiting.push(step);
        return;
      }
      try {
        work(items[next++] as T);
      } catch {
        // Each piece reports its own findings; one that throws must not stop the others.
      }
      setImmediate(step);
    };
    // The first piece once the first request has been answered, or once none came for a moment:
    // a client that starts the server and asks at once (a test run, the bench) is not kept
    // waiting by a piece that began just before its request came in.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      clearTimeout(quiet);
      step();
    };
    const quiet = setTimeout(start, QUIET_MS);
    quiet.unref();
    traffic.waiting.push(start);
  });
}
