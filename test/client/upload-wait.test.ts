/**
 * Multipart uploads from a Blob, a Buffer and a file path (mock and a recording server), and
 * submit-and-wait: against the mock, and against a server whose task runs for a few polls.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, DataApiError, fileFromPath } from '../../generated/client/index.ts';
import { capitalised, MOCK_KEY, startMock, startServer, type Running } from './helpers.ts';

let mock: Running;
let work: string | undefined;
let filePath: string;
beforeAll(async () => {
  mock = await startMock();
  work = await mkdtemp(path.join(tmpdir(), 'dataapi-client-upload-'));
  filePath = path.join(work, '招生政策.txt');
  await writeFile(filePath, 'policy text from disk');
});
afterAll(async () => {
  await mock.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('multipart uploads', () => {
  it('uploads knowledge-base documents from a Blob, a Buffer and a path (mock)', async () => {
    const c = createClient({ baseUrl: mock.baseUrl, appkey: MOCK_KEY });
    const r = await c.uploadKnowledgeBaseDocuments({
      path: { knowledge_base_id: 'kb_gaokao_policy_2025' },
      body: {
        files: [
          new File(['hello'], 'a.pdf', { type: 'application/pdf' }),
          { data: Buffer.from('buffer bytes'), filename: 'b.txt', contentType: 'text/plain' },
          fileFromPath(filePath),
        ],
        tenant_id: 'tenant_zj_edu_001',
        replace_existing: 'false',
      },
    });
    expect(r.status.code).toBe(100);
    expect(r.data.knowledge_base_id).toBe('kb_gaokao_policy_2025');
    expect(r.data.documents?.map((d) => [d.file_name, d.file_size])).toEqual([
      ['a.pdf', 5],
      ['b.txt', 12],
      ['招生政策.txt', Buffer.byteLength('policy text from disk')],
    ]);
  });

  it('sends each part with its name, filename and type (recording server)', async () => {
    const s = await startServer((app) => {
      app.post('/v1/document-extractions', async () => capitalised({ requestId: 'r' }));
    });
    try {
      const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
      await c.extractDocumentFields({
        body: { file: Buffer.from('%PDF-1.7 bytes'), schema: '{"a":"string"}', ocrMode: 'auto' },
      });
      const body = String(s.arrivals[0]?.body);
      expect(s.arrivals[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(body).toMatch(
        /name="file"; filename="file"\r\nContent-Type: application\/octet-stream\r\n\r\n%PDF-1.7 bytes/,
      );
      expect(body).toContain('name="schema"\r\n\r\n{"a":"string"}');
      expect(body).toContain('name="ocrMode"\r\n\r\nauto');
    } finally {
      await s.close();
    }
  });
});

describe('submit and wait', () => {
  it('submits and polls the mock to a final state', async () => {
    const c = createClient({ baseUrl: mock.baseUrl, appkey: MOCK_KEY });
    const r = await c.submitAndWait.submitDocumentExtraction(
      { body: { text: '发票号码 04412345', schema: '{"invoiceNumber":"string"}' } },
      { intervalMs: 20 },
    );
    expect(r.data.status).toBe('completed');
    expect(r.data.operationId).toBeTypeOf('string');
  });

  it('polls the status operation with a growing interval until the task completes', async () => {
    let polls = 0;
    const s = await startServer((app) => {
      app.post('/v1/document-extractions/async', async () =>
        capitalised({ operationId: 'op_1', status: 'queued', pollingUrl: '/x' }),
      );
      app.get('/v1/document-extractions/tasks/:id', async (req) =>
        capitalised({
          operationId: (req.params as { id: string }).id,
          status: ++polls < 3 ? 'running' : 'completed',
          values: { a: { value: 1 } },
        }),
      );
    });
    try {
      const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
      const seen: string[] = [];
      const r = await c.submitAndWait.submitDocumentExtraction(
        { body: { text: 't' } },
        {
          intervalMs: 60,
          factor: 2,
          onPoll: (p) => seen.push(String((p.data as { status: string }).status)),
        },
      );
      expect(r.data.status).toBe('completed');
      expect(seen).toEqual(['running', 'running', 'completed']);
      const [submit, ...rest] = s.arrivals;
      expect(submit?.url).toBe('/v1/document-extractions/async?appkey=k');
      expect(rest.map((a) => a.url)).toEqual(
        Array(3).fill('/v1/document-extractions/tasks/op_1?appkey=k'),
      );
      const at = s.arrivals.map((a) => a.at);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(120);
      expect(at[3]! - at[2]!).toBeGreaterThanOrEqual(240);
    } finally {
      await s.close();
    }
  });

  it('gives up with a timeout error when the task never ends', async () => {
    const s = await startServer((app) => {
      app.post('/v1/document-extractions/async', async () =>
        capitalised({ operationId: 'op_2', status: 'running' }),
      );
      app.get('/v1/document-extractions/tasks/:id', async () =>
        capitalised({ operationId: 'op_2', status: 'running' }),
      );
    });
    try {
      const c = createClient({ baseUrl: s.baseUrl, appkey: 'k' });
      const e = await c.submitAndWait
        .submitDocumentExtraction({ body: { text: 't' } }, { intervalMs: 30, waitTimeoutMs: 200 })
        .catch((err: unknown) => err);
      expect(e).toBeInstanceOf(DataApiError);
      expect((e as DataApiError).outcome).toBe('timeout');
      expect((e as DataApiError).message).toContain('op_2');
    } finally {
      await s.close();
    }
  });
});
