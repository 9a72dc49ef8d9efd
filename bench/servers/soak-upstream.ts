/**
 * The soak run's deployment, in its own process: GET /Weather/AirQuality answered in mixed
 * shapes by the `shape` query value (plain JSON, gzip, chunked in pieces, a 200 kB list) and, for
 * `inj=<n>`, with a wrong business code: the violation the proxy must report once. Every answer
 * carries the SHA-256 of its body and of its end-to-end headers, so the load generator can tell
 * whether the proxy altered a byte. Prints `LISTENING <url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { model } from '../../generated/model.ts';
import { headerDigest, sha } from '../lib/soak-digest.ts';

const op = model.operations.find((o) => o.id === 'getAirQuality')!;
const example = op.responses.find((r) => r.status === '200')!.examples[0]!.value as {
  DataStatus: Record<string, unknown>;
  Data: unknown[];
};
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const large = structuredClone(example);
while (JSON.stringify(large).length < 200 * 1024) large.Data.push(example.Data[0]);
const wrong = structuredClone(example);
wrong.DataStatus.StatusCode = 999;
const BODIES: Record<string, { body: Buffer; encoding?: string; pieces?: number }> = {
  plain: { body: json(example) },
  gzip: { body: gzipSync(json(example)), encoding: 'gzip' },
  chunked: { body: json(example), pieces: 4 },
  large: { body: json(large) },
  wrong: { body: json(wrong) },
};

// Each shape's header lines, digests included, made once: hashing a 200 kB body for every answer
// cost CPU that this process takes from the proxy under test (they share the machine's cores).
const HEADERS = new Map(
  Object.entries(BODIES).map(([shape, b]) => {
    const headers: [string, string][] = [['content-type', 'application/json; charset=utf-8']];
    if (b.encoding) headers.push(['content-encoding', b.encoding]);
    if (!b.pieces) headers.push(['content-length', String(b.body.length)]);
    headers.push(['x-soak-body', sha(b.body)], ['x-soak-headers', headerDigest(headers)]);
    return [shape, headers.flat()];
  }),
);

const server = http.createServer({ keepAliveTimeout: 70_000 }, (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const asked = url.searchParams.has('inj') ? 'wrong' : (url.searchParams.get('shape') ?? 'plain');
  const shape = asked in BODIES ? asked : 'plain';
  const b = BODIES[shape]!;
  res.writeHead(200, HEADERS.get(shape)!);
  if (!b.pieces) return void res.end(b.body);
  const size = Math.ceil(b.body.length / b.pieces);
  for (let i = 0; i < b.body.length; i += size) res.write(b.body.subarray(i, i + size));
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as AddressInfo;
  process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
