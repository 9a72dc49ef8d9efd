/**
 * Property: random and malformed requests to every route (methods, path values, query
 * parameters, headers, JSON, bytes, broken multipart) never get a 5xx and never crash the server.
 * Bounded to ~300 requests so it stays fast on CI.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { KEY, startMock, validRequest, type Running } from '../mock/helpers.ts';

/** The run's seed: DATAAPI_FUZZ_SEED replays another one. */
const SEED = Number(process.env['DATAAPI_FUZZ_SEED'] ?? 20_251_126);

let mock: Running;
beforeAll(async () => {
  mock = await startMock({ limits: { bodyBytes: 32 * 1024, fileBytes: 4096, files: 3 } });
});
afterAll(() => mock.close());

const routes = model.operations.flatMap((op) => [
  { op, preview: false },
  ...(op.preview ? [{ op, preview: true }] : []),
]);

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    '-1',
    '0',
    '21',
    '1e309',
    'NaN',
    'null',
    '[]',
    '{}',
    '%',
    '%ff',
    '__proto__',
    'a'.repeat(5000),
  ),
);
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{"a":', '[', ''),
);
const bodyKind = fc.constantFrom(
  'none',
  'valid-mutated',
  'json',
  'bytes',
  'multipart-broken',
  'form',
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=latin1',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=zz',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  '*/*',
  ';;;',
);
const prefer = fc.constantFrom(
  undefined,
  'code=400',
  'code=401',
  'code=429',
  'code=99',
  'code=abc',
  'example=nope',
  'dynamic=true',
  'business-code=505',
  'business-code=x',
  'example=default, dynamic',
);

describe('no 5xx, no crash', () => {
  it('random and malformed requests to every route', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('same', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.array(
          fc.tuple(
            fc.oneof(
              text,
              fc.constantFrom('appkey', 'pageSize', 'city', 'location', 'lang', 'ip', 'domain'),
            ),
            text,
          ),
          { maxLength: 6 },
        ),
        // Header-safe: the key may travel in a header, which cannot carry control characters.
        fc.oneof(fc.constant(KEY), fc.stringMatching(/^[\x21-\x7e]{0,30}$/)),
        text,
        bodyKind,
        json,
        fc.uint8Array({ maxLength: 256 }),
        contentType,
        prefer,
        async (route, method, query, key, pathValue, kind, jsonBody, bytes, type, preferHeader) => {
          const base = validRequest(model, route.op, { preview: route.preview, key });
          let path = base.path.split('?')[0] ?? '/';
          if (route.op.parameters.path.length > 0 && pathValue) {
            path = path.replace(/\/[^/]+\/(documents|tasks\/[^/]+)$/, (m) =>
              m.replace(/[^/]+$/, encodeURIComponent(pathValue)),
            );
          }
          const qs = new URLSearchParams(base.path.split('?')[1] ?? '');
          for (const [k, v] of query) qs.append(k, v);
          const headers: Record<string, string> = { ...base.init.headers };
          if (type === undefined) delete headers['content-type'];
          else headers['content-type'] = type;
          if (preferHeader) headers.prefer = preferHeader;
          let body: BodyInit | undefined;
          if (kind === 'valid-mutated') {
            body =
              typeof base.init.body === 'string'
                ? base.init.body.slice(
                    0,
                    Math.max(0, base.init.body.length - ((bytes[0] ?? 0) % 5)),
                  )
                : (base.init.body ?? undefined);
            if (body instanceof FormData) delete headers['content-type'];
          } else if (kind === 'json')
            body = typeof jsonBody === 'string' ? jsonBody : JSON.stringify(jsonBody);
          else if (kind === 'bytes') body = Buffer.from(bytes);
          else if (kind === 'multipart-broken')
            body = `--zz\r\nContent-Disposition: form-data; name="files"; filename="x"\r\n\r\n${Buffer.from(bytes).toString('latin1')}`;
          else if (kind === 'form') body = qs.toString();
          const m = method === 'same' ? route.op.method.toUpperCase() : method;
          if (m === 'GET' || m === 'HEAD') body = undefined;
          const res = await fetch(`${mock.url}${path}?${qs.toString()}`, {
            method: m,
            headers,
            body,
          });
          await res.arrayBuffer();
          sent += 1;
          expect(res.status, `${m} ${path}`).toBeLessThan(500);
        },
      ),
      // Seeded: a failure names its seed and path (fast-check's message), and the same run repeats.
      { numRuns: 300, seed: SEED },
    );
    expect(sent).toBe(300);
    expect((await fetch(`${mock.url}/__health`)).status).toBe(200);
  });
});
