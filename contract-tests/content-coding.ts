/**
 * A request body in the content coding its `Content-Encoding` header names (a header parameter the
 * operation declares, drawn like any other: Apify's gzip, deflate, br): sent coded, as the header
 * says it is. Sent plain under `gzip`, no server could read it. A value that is no coding (a
 * negative case's) leaves the body as it is.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

const CODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gzipSync,
  'x-gzip': gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};

export function encodedBody(
  headers: Record<string, string>,
  payload: string | Uint8Array<ArrayBuffer>,
): string | Uint8Array<ArrayBuffer> {
  const coding = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
  const code = coding === undefined ? undefined : CODERS[coding.trim().toLowerCase()];
  if (!code) return payload;
  return new Uint8Array(code(Buffer.from(payload)));
}
