/**
 * A multipart body in a content coding its operation declares (a `Content-Encoding` header
 * parameter that takes gzip): the server decoded other bodies before parsing them
 * (runtime/server/content-coding.ts), but @fastify/multipart reads the request's own stream, so
 * the coded bytes were parsed as a form (a 400, "Malformed multipart body") and a body past the
 * decoder's buffer left the request waiting. The parts are now read from the decoded stream.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixture, type ServedFixture } from '../server/serve-fixture.ts';
import { modelOf } from './helpers.ts';

let served: ServedFixture;
beforeAll(async () => {
  served = await serveFixture(await modelOf('multipart-gzip.yaml'));
});
afterAll(() => served?.close());

/** A form's bytes and Content-Type as fetch would write them. */
async function formBytes(name: string, file: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append('name', name);
  form.append('file', new Blob([file]), 'a.bin');
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

const upload = async (coding: string, bytes: Uint8Array<ArrayBuffer>, type: string) => {
  const res = await fetch(`${served.url}/uploads`, {
    method: 'POST',
    headers: { 'content-type': type, 'content-encoding': coding },
    body: bytes,
  });
  return { status: res.status, text: await res.text() };
};

describe('a gzip-coded multipart body the operation declares', () => {
  it('is read from its decoded bytes, small and past a stream buffer', async () => {
    for (const size of [10, 300_000]) {
      const { bytes, type } = await formBytes('zipped', new Uint8Array(size).fill(7));
      const res = await upload('gzip', new Uint8Array(gzipSync(bytes)), type);
      expect(res.status, res.text).toBe(201);
      expect((JSON.parse(res.text) as { body: { name: string } }).body.name).toBe('zipped');
    }
  });

  it('plain under identity, and a body that is no gzip is a 400 in the error shape', async () => {
    const { bytes, type } = await formBytes('plain', new Uint8Array(4));
    expect((await upload('identity', bytes, type)).status).toBe(201);
    const bad = await upload('gzip', bytes, type);
    expect(bad.status, bad.text).toBe(400);
  });
});
