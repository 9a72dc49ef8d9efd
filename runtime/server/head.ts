/**
 * HEAD answered by its GET's route (register.ts gives a GET's route both methods): the GET's
 * status and headers, with the length its body would have had and no body, as Fastify's own
 * automatic HEAD route answers (fastify/lib/head-route.js). One route instead of two per GET
 * halves much of a large description's start (GitHub: about 600 routes fewer).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

type Done = (error: Error | null, payload: unknown) => void;

/** A route's `onSend` hook: a GET passes through, a HEAD loses its body but keeps its length. */
export function headOnSend(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: Done,
): void {
  if (request.method !== 'HEAD') return done(null, payload);
  if (payload === undefined || payload === null) {
    reply.header('content-length', '0');
    return done(null, null);
  }
  if (typeof (payload as NodeJS.ReadableStream).resume === 'function') {
    // A stream is drained, not sent; its length is not known beforehand.
    const stream = payload as NodeJS.ReadableStream;
    stream.on('error', (err) => reply.log.error({ err }, 'error on a stream drained for HEAD'));
    stream.resume();
    return done(null, null);
  }
  if (typeof (payload as ReadableStream).getReader === 'function') {
    (payload as ReadableStream).cancel('cancelled for HEAD').catch((err: unknown) => {
      reply.log.error({ err }, 'error on a stream cancelled for HEAD');
    });
    return done(null, null);
  }
  reply.header('content-length', String(Buffer.byteLength(payload as string | Buffer)));
  done(null, null);
}
