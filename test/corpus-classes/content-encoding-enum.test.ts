/**
 * A request header `Content-Encoding` declared with an enum (Apify: br, gzip, deflate, identity).
 * The server's own check of a body's content coding (route-checks.ts) answered 415 before the
 * header was validated, so a value outside the enum was refused as an unsupported coding, not as
 * an invalid header: the suite's negative case and its fuzz expected the 400 every other header
 * gets. A declared Content-Encoding whose schema refuses the value is now left to validation: a
 * 400 in the operation's error shape. A coding the operation declares is decoded
 * (runtime/server/content-coding.ts), and the suite sends the body in the coding its header names
 * (contract-tests/content-coding.ts): sent plain under `gzip`, the fuzz's valid requests were
 * refused. A coding the operation does not declare is still a 415.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectPassed, fixture, ownSuite, send, serveBoth } from './helpers.ts';

const served = serveBoth('content-encoding-enum.yaml');

const put = (coding: string) =>
  send(`${served.mock.url}/items`, 'POST', { name: 'a' }, { 'content-encoding': coding });

describe('a request header Content-Encoding with an enum', () => {
  it('a value outside the enum is a 400 in the error shape, as any header', async () => {
    const res = await put('dataapi-not-in-enum');
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(Object) });
  });

  it('a body in a coding the operation declares is decoded; identity is taken', async () => {
    const res = await fetch(`${served.server.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"name":"zipped"}'),
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect((JSON.parse(text) as { body: unknown }).body).toEqual({ name: 'zipped' });
    expect((await put('identity')).status).toBe(201);
  });

  it('a coding the operation does not declare is a 415', async () => {
    const res = await send(
      `${served.mock.url}/plain`,
      'POST',
      { name: 'a' },
      { 'content-encoding': 'gzip' },
    );
    expect(res.status, res.text).toBe(415);
  });

  it('passes the suite and its fuzz against its own mock', async () => {
    const { run, tail } = await ownSuite(fixture('content-encoding-enum.yaml'), {
      fuzz: true,
      seed: 1,
    });
    expectPassed(run, tail);
  }, 120_000);
});
