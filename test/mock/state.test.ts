/** The mock's state: uploads answer with the uploaded files; async tasks move through their states. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeErrors, readEnvelope, validatorFor } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { TaskStore } from '../../runtime/mock/state.ts';
import { call, KEY, startMock, validRequest, type Running } from './helpers.ts';

let mock: Running;
beforeAll(async () => {
  mock = await startMock({ rateLimit: false });
});
afterAll(() => mock.close());

type Obj = Record<string, unknown>;

describe('knowledge-base upload', () => {
  it('returns the uploaded files with their statuses, for the knowledge base of the path', async () => {
    const op = model.operations.find((o) => o.id === 'uploadKnowledgeBaseDocuments')!;
    const form = new FormData();
    form.append('files', new Blob(['a'.repeat(10)]), '招生章程.docx');
    form.append('files', new Blob(['b'.repeat(20)]), 'lines.xlsx');
    form.append('tenant_id', 't1');
    const res = await fetch(`${mock.url}/ai/knowledge-bases/kb_42/documents?appkey=${KEY}`, {
      method: 'POST',
      body: form,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const check = validatorFor(model).compile(op.success!.schema!);
    expect(check(body), describeErrors(check.errors, body).join('\n')).toBe(true);
    const reading = readEnvelope(op, body);
    const data = reading.payload as { knowledge_base_id: string; documents: Obj[] };
    expect(data.knowledge_base_id).toBe('kb_42');
    expect(data.documents.map((d) => [d.file_name, d.file_size])).toEqual([
      ['招生章程.docx', 10],
      ['lines.xlsx', 20],
    ]);
    for (const d of data.documents) {
      expect(typeof d.status).toBe('string');
      expect(typeof d.parse_status).toBe('string');
    }
    expect(new Set(data.documents.map((d) => d.document_id)).size).toBe(2);
    expect(reading.totalCount).toBe(2);
  });
});

describe('asynchronous extraction (driven by op.async)', () => {
  const submit = model.operations.find((o) => o.async?.role === 'submit')!;
  const status = model.operations.find((o) => o.id === submit.async!.partner)!;
  const link = submit.async!;

  it('submit returns a task whose polling URL is this server; polls move to the result', async () => {
    const res = await call(mock.url, validRequest(model, submit));
    expect(res.status).toBe(200);
    const task = readEnvelope(submit, res.body).payload as Obj;
    const id = task[link.operationIdField] as string;
    const pollingUrl = task[link.pollingUrlField] as string;
    expect(pollingUrl.startsWith(mock.url)).toBe(true);
    expect(pollingUrl).toContain(encodeURIComponent(id));
    const check = validatorFor(model).compile(status.success!.schema!);
    const states: unknown[] = [task[link.statusField]];
    for (let i = 0; i < 4; i++) {
      const poll = await fetch(`${pollingUrl}?appkey=${KEY}`);
      expect(poll.status).toBe(200);
      const body = await poll.json();
      expect(check(body), describeErrors(check.errors, body).join('\n')).toBe(true);
      const data = readEnvelope(status, body).payload as Obj;
      expect(data[link.operationIdField]).toBe(id);
      states.push(data[link.statusField]);
    }
    // queued -> running -> completed, then it stays completed with its result.
    expect(new Set(states).size).toBeGreaterThanOrEqual(3);
    expect(states.at(-1)).toBe(states.at(-2));
    const final = status.success!.examples.find((e) => e.name === 'default')!.value as Obj;
    expect(states.at(-1)).toBe((final.Data as Obj)[link.statusField]);
  });

  it('two tasks are independent; an unknown task id answers from the examples', async () => {
    const a = readEnvelope(submit, (await call(mock.url, validRequest(model, submit))).body)
      .payload as Obj;
    const b = readEnvelope(submit, (await call(mock.url, validRequest(model, submit))).body)
      .payload as Obj;
    expect(a[link.operationIdField]).not.toBe(b[link.operationIdField]);
    const other = await call(mock.url, validRequest(model, status));
    expect(other.status).toBe(200);
  });

  it('a task id follows from what was submitted, not from the order submits arrive in', async () => {
    const other = await startMock({ rateLimit: false });
    try {
      /** The submit's form with its file named `name` (the rest as validRequest builds it). */
      const named = (name: string) => {
        const req = validRequest(model, submit);
        const form = new FormData();
        (req.init.body as FormData).forEach((value, field) => {
          if (typeof value === 'string') form.append(field, value);
          else form.append(field, value, name);
        });
        return { ...req, init: { ...req.init, body: form } };
      };
      const idOf = async (base: string, name: string) =>
        (readEnvelope(submit, (await call(base, named(name))).body).payload as Obj)[
          link.operationIdField
        ] as string;
      // One mock receives x then y, the other y then x.
      const x = await idOf(mock.url, 'x.pdf');
      const y = await idOf(mock.url, 'y.pdf');
      expect(await idOf(other.url, 'y.pdf')).toBe(y);
      expect(await idOf(other.url, 'x.pdf')).toBe(x);
      expect(x).not.toBe(y);
      expect(x).toMatch(/^op_mock_[0-9a-f]{8}$/);
      // The same submit again is another task.
      expect(await idOf(mock.url, 'x.pdf')).toBe(`${x}_2`);
    } finally {
      await other.close();
    }
  });

  it('numbers repeats of one submit past the tasks it keeps, each id still unique', () => {
    const store = new TaskStore();
    const ids = Array.from({ length: 10_005 }, () => store.create('same', (id) => id).id);
    expect(ids.slice(0, 3)).toEqual([ids[0], `${ids[0]}_2`, `${ids[0]}_3`]);
    expect(ids.at(-1)).toBe(`${ids[0]}_10005`);
    expect(new Set(ids).size).toBe(ids.length);
    // The oldest went (10,000 kept); the newest answer.
    expect(store.get(ids[0]!)).toBeUndefined();
    expect(store.get(ids.at(-1)!)?.id).toBe(ids.at(-1));
  });
});
