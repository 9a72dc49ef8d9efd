/**
 * A deployment with planted violations, for the proxy's tests: a real Fastify server that answers
 * a few operations from the description's own examples, five of them broken in one way each:
 * a wrong business code (getIpLocation), a missing required field (getSslCertInfo), the other
 * envelope spelling (getGlobalUniversityRanking), an undeclared status (getFundOpenRealtime) and
 * a 429 without Retry-After (getFundBasicInfo). Bodies are sent as prepared bytes, kept in `sent`
 * by path, so a test can compare them with what a client received through the proxy. It also
 * takes an upload (recording its bytes) and streams server-sent events at /events, sending the
 * second event only when the test says so.
 */
import Fastify from 'fastify';
import { model } from '../../generated/model.ts';

const exampleOf = (id: string, status = '200') =>
  structuredClone(
    model.operations.find((o) => o.id === id)!.responses.find((r) => r.status === status)!
      .examples[0]!.value,
  ) as Record<string, any>;

export interface Upstream {
  url: string;
  /** Response bytes sent, by request path. */
  sent: Map<string, Buffer>;
  /** Request lines received (`GET /path?query`). */
  lines: string[];
  /** Request bodies received, by request path. */
  received: Map<string, Buffer>;
  /** Lets /events send its second event and end. */
  release(): void;
  close(): Promise<void>;
}

export const PLANTED = {
  wrongCode: '/v2/location/ip',
  missingField: '/v2/websitetools/sslcertinfo',
  otherEnvelope: '/metadata/global-university-ranking',
  undeclaredStatus: '/fund/open/realtime',
  noRetryAfter: '/fund/basicinfo',
} as const;

export async function startUpstream(): Promise<Upstream> {
  const sent = new Map<string, Buffer>();
  const received = new Map<string, Buffer>();
  const lines: string[] = [];
  const app = Fastify({ logger: false });
  app.addHook('onRequest', async (req) => {
    lines.push(`${req.method} ${req.url}`);
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    received.set(req.url.split('?')[0]!, body as Buffer);
    done(null, body);
  });
  const answer = (
    path: string,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.all(path, async (_req, reply) => {
      const bytes = Buffer.from(JSON.stringify(body));
      sent.set(path, bytes);
      reply.code(status).headers({ 'content-type': 'application/json; charset=utf-8', ...headers });
      return reply.send(bytes);
    });

  answer('/Weather/AirQuality', 200, exampleOf('getAirQuality'));
  const ip = exampleOf('getIpLocation');
  ip.dataStatus.statusCode = 999;
  answer(PLANTED.wrongCode, 200, ip);
  const ssl = exampleOf('getSslCertInfo');
  delete ssl.dataStatus.statusDescription;
  answer(PLANTED.missingField, 200, ssl);
  const ranking = exampleOf('getGlobalUniversityRanking');
  answer(PLANTED.otherEnvelope, 200, { dataStatus: ranking.DataStatus, data: ranking.Data });
  answer(PLANTED.undeclaredStatus, 418, exampleOf('getFundOpenRealtime'));
  answer(PLANTED.noRetryAfter, 429, exampleOf('getFundBasicInfo', '429'));
  answer('/ai/knowledge-bases/:id/documents', 200, exampleOf('uploadKnowledgeBaseDocuments'));

  // Past the proxy's judging cap: passed through whole, judged by status and headers only.
  answer('/fund/open/history', 200, { DataStatus: {}, Data: 'x'.repeat(3 * 1024 * 1024) });

  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  app.get('/events', (_req, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    reply.raw.write('id: 1\ndata: {"n":1}\n\n');
    void released.then(() => reply.raw.end('id: 2\ndata: {"n":2,"text":"终"}\n\n'));
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    lines,
    received,
    release,
    close: async () => {
      release();
      await app.close();
    },
  };
}
