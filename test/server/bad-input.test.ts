/**
 * Bad input gets its 4xx, in the operation's envelope, and never a 500: malformed JSON, wrong
 * types, bodies over the limit, broken multipart, __proto__/constructor keys, invalid UTF-8,
 * very long query strings, wrong methods, unknown paths, wrong content types. Raw sockets are
 * used where fetch would refuse to send the bytes.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvelope } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { call, KEY, startMock, validRequest, type Running } from '../mock/helpers.ts';

let mock: Running;
beforeAll(async () => {
  mock = await startMock({
    rateLimit: false,
    limits: { bodyBytes: 64 * 1024, fileBytes: 1024, files: 2 },
  });
});
afterAll(() => mock.close());

const op = (id: string) => model.operations.find((o) => o.id === id)!;
const predict = `/ai/admission/predict?appkey=${KEY}`;
const rank = `/ai/admission/major-line-rank?appkey=${KEY}`;

async function post(path: string, body: BodyInit, type = 'application/json') {
  const res = await fetch(mock.url + path, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    headers: res.headers,
  };
}

/** Sends raw bytes and returns the status line's code. */
function raw(request: Buffer | string): Promise<number> {
  const { port } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
  });
}

describe('JSON bodies', () => {
  it('malformed JSON, an empty body and a non-object are 400 with the group code', async () => {
    for (const body of ['{"a":', '', 'nul', '[1,2]', '"x"', '{"province": 1}']) {
      const res = await post(rank, body);
      expect(res.status, body).toBe(400);
      expect(readEnvelope(op('rankAdmissionMajorLines'), res.body).code, body).toBe(501);
    }
  });

  it('wrong types and out-of-range values are 400 (score 751, page_size 51)', async () => {
    const good = validRequest(model, op('rankAdmissionMajorLines')).init.body as string;
    const base = JSON.parse(good) as Record<string, unknown>;
    for (const patch of [
      { score: 751 },
      { score: 'high' },
      { page_size: 51 },
      { candidate_limit: 51 },
      { probability_sort: 'up' },
    ]) {
      const res = await post(rank, JSON.stringify({ ...base, ...patch }));
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(readEnvelope(op('rankAdmissionMajorLines'), res.body).code).toBe(501);
    }
    expect((await post(rank, good)).status).toBe(200);
  });

  it('__proto__ and constructor keys are refused, not merged', async () => {
    for (const body of [
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      const res = await post(predict, body);
      expect(res.status, body).toBe(400);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a body over the limit is 413', async () => {
    const res = await post(predict, JSON.stringify({ pad: 'x'.repeat(100 * 1024) }));
    expect(res.status).toBe(413);
    expect(readEnvelope(op('predictAdmission'), res.body).wellFormed).toBe(true);
  });

  it('a wrong content type is 415; a missing one with a body too', async () => {
    expect((await post(predict, '{}', 'text/plain')).status).toBe(415);
    expect((await post(predict, '<a/>', 'application/xml')).status).toBe(415);
    expect((await post(predict, 'a=1', 'application/x-www-form-urlencoded')).status).toBe(415);
    const multipart = await post(`/ai/knowledge-bases/kb/documents?appkey=${KEY}`, '{}');
    expect(multipart.status).toBe(415);
    const status = await raw(
      `POST ${predict} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(status).toBe(415);
    const gzip = await fetch(mock.url + predict, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{}',
    });
    expect(gzip.status).toBe(415);
  });

  it('invalid UTF-8 in a JSON body is a 400', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"province":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    const res = await post(predict, bytes);
    expect(res.status).toBe(400);
    expect(readEnvelope(op('predictAdmission'), res.body).code).toBe(501);
  });
});

describe('URLs', () => {
  it('unknown path 404, wrong method 405 with Allow', async () => {
    const notFound = await fetch(`${mock.url}/no/such/path`);
    expect(notFound.status).toBe(404);
    const wrong = await fetch(`${mock.url}/Weather/AirQuality?appkey=${KEY}&city=x`, {
      method: 'DELETE',
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const body = (await wrong.json()) as unknown;
    expect(readEnvelope(op('getAirQuality'), body).code).toBe(101);
    const post405 = await fetch(`${mock.url}/v2/location/ip/demo`, {
      method: 'PUT',
      body: 'x',
      headers: { 'content-type': 'text/weird' },
    });
    expect(post405.status).toBe(405);
  });

  it('invalid percent-encoding and invalid UTF-8 in the URL are 400', async () => {
    for (const path of [
      '/Weather/AirQuality?city=%ff%fe&appkey=mock-appkey',
      '/Weather/AirQuality?city=%&appkey=mock-appkey',
      '/%ff/%zz',
      '/v1/document-extractions/tasks/%ff?appkey=mock-appkey',
    ]) {
      const status = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(status, path).toBe(400);
    }
    const bytes = Buffer.concat([
      Buffer.from('GET /Weather/AirQuality?city='),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    ]);
    const status = await raw(bytes);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('very long query strings are 4xx (or served), never 5xx', async () => {
    for (const n of [4000, 20000, 100000]) {
      const res = await fetch(
        `${mock.url}/Weather/AirQuality?appkey=${KEY}&city=${'a'.repeat(n)}`,
      ).catch(() => undefined);
      if (res) expect(res.status, String(n)).toBeLessThan(500);
    }
    const many = Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&');
    const res = await fetch(`${mock.url}/Weather/AirQuality?appkey=${KEY}&city=x&${many}`);
    expect(res.status).toBeLessThan(500);
  });

  it('wrong parameter types are 400: pageSize 21, pageSize=abc, lang=fr', async () => {
    for (const q of ['pageSize=21', 'pageSize=abc', 'pageSize=0', 'pageIndex=-1']) {
      const res = await fetch(`${mock.url}/metadata/global-university-ranking?appkey=${KEY}&${q}`);
      expect(res.status, q).toBe(400);
    }
    const lang = await fetch(`${mock.url}/Weather/AirQuality?appkey=${KEY}&city=x&lang=fr`);
    expect(lang.status).toBe(400);
    const none = await fetch(`${mock.url}/Weather/AirQuality?appkey=${KEY}`);
    expect(none.status).toBe(400);
  });
});

describe('multipart', () => {
  const upload = `/ai/knowledge-bases/kb/documents?appkey=${KEY}`;

  it('broken multipart bodies are 400', async () => {
    const boundary = '----x';
    for (const body of [
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\nabc`,
      'not multipart at all',
      `--${boundary}\r\nContent-Disposition: form-data; name="toString"\r\n\r\nx\r\n--${boundary}--\r\n`,
    ]) {
      const res = await post(upload, body, `multipart/form-data; boundary=${boundary}`);
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
    }
    const noBoundary = await post(upload, 'x', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
  });

  it('files over the size or count limit are 413', async () => {
    const big = new FormData();
    big.append('files', new Blob(['x'.repeat(5000)]), 'big.pdf');
    expect((await fetch(mock.url + upload, { method: 'POST', body: big })).status).toBe(413);
    const many = new FormData();
    for (let i = 0; i < 4; i++) many.append('files', new Blob(['x']), `f${i}.pdf`);
    expect((await fetch(mock.url + upload, { method: 'POST', body: many })).status).toBe(413);
  });

  it('a field of the wrong value is 400; file names are data, never paths', async () => {
    const bad = new FormData();
    bad.append('files', new Blob(['x']), 'a.pdf');
    bad.append('replace_existing', 'maybe');
    expect((await fetch(mock.url + upload, { method: 'POST', body: bad })).status).toBe(400);
    const odd = new FormData();
    odd.append('files', new Blob(['x']), '../../etc/passwd');
    const res = await fetch(mock.url + upload, { method: 'POST', body: odd });
    expect(res.status).toBe(200);
    const data = readEnvelope(op('uploadKnowledgeBaseDocuments'), await res.json()).payload as {
      documents: { file_name: string }[];
    };
    // busboy keeps only the base name; the mock treats it as text either way.
    expect(data.documents.map((d) => d.file_name)).toEqual(['passwd']);
  });
});
