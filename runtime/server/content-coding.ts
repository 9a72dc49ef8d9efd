/**
 * A request body in a content coding the operation declares (a `Content-Encoding` header parameter
 * whose schema takes the coding: Apify's `enum: [br, gzip, deflate, identity]`): decoded before it
 * is parsed, as the description promises the server reads it. A coding the operation does not
 * declare is still a 415 (route-checks.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Whether the server can decode a body in this coding (`identity` needs nothing). */
export const decodable = (coding: string): boolean =>
  Object.hasOwn(DECODERS, coding.trim().toLowerCase());

const CODING = Symbol('dataapi.contentCoding');
const DECODED = Symbol('dataapi.decodedBody');

/**
 * The decoded body stream of a marked request: what reads the request's own stream instead of
 * the parsed payload (@fastify/multipart) reads this one.
 */
export const decodedBody = (request: FastifyRequest): Readable | undefined =>
  (request as unknown as { [DECODED]?: Readable })[DECODED];

/** Marks a request whose body is to be decoded (its operation declares the coding). */
export function decodeBody(request: FastifyRequest, coding: string): void {
  (request as unknown as { [CODING]?: string })[CODING] = coding.trim().toLowerCase();
}

/**
 * The app's preParsing hook: a marked request's body through its decoder. Fastify compares the
 * bytes received with Content-Length by `receivedEncodedLength`: the coded bytes are counted.
 * A body that does not decode is a 400 (Fastify's answer to a stream error while reading).
 */
export function installBodyDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const coding = (request as unknown as { [CODING]?: string })[CODING];
    const make = coding === undefined ? undefined : DECODERS[coding];
    if (!make) return done(null, payload);
    const decoder = make() as unknown as Readable & { receivedEncodedLength: number };
    decoder.receivedEncodedLength = 0;
    (request as unknown as { [DECODED]?: Readable })[DECODED] = decoder;
    payload.on('data', (chunk: Buffer) => (decoder.receivedEncodedLength += chunk.length));
    payload.on('error', (err) => decoder.destroy(err));
    done(
      null,
      (payload as unknown as Readable).pipe(decoder as unknown as NodeJS.WritableStream) as never,
    );
  });
}
