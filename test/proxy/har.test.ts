/**
 * `dataapi contract --from-har`: a HAR the proxy recorded, judged offline, gives the findings the
 * proxy printed live; re-sent with --replay-to it gives them again, with the key from
 * DATAAPI_APPKEY put back where the file has it redacted; a request that writes is re-sent only
 * with --allow-writes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { judgeHar } from '../../contract-tests/proxy/from-har.ts';
import { driveClient, KEY, runTestProxy } from './harness.ts';
import { startUpstream, type Upstream } from './upstream.ts';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

function sink() {
  let text = '';
  const out = new Writable({
    write(chunk, _e, cb) {
      text += String(chunk);
      cb();
    },
  });
  return {
    out,
    text: () => text,
    findings: () => text.split('\n').filter((l) => /^[✗!] /.test(l)),
  };
}

async function recorded(drive: (url: string) => Promise<unknown>) {
  const proxy = await runTestProxy(upstream.url, { record: true });
  await drive(proxy.url);
  await proxy.stop();
  return { proxy, har: path.join(proxy.dir, 'traffic.har') };
}

const judge = (file: string, dir: string, extra: Partial<Parameters<typeof judgeHar>[0]> = {}) => {
  const s = sink();
  const done = judgeHar({
    model,
    file,
    allowWrites: false,
    timeoutMs: 300_000, // a safety net against a hung target, not a performance limit
    reporters: ['json'],
    reportDir: path.join(dir, 'har-reports'),
    root: dir,
    out: s.out,
    ...extra,
  });
  return { s, done };
};

it('judges a recorded HAR offline with the findings the proxy gave live', async () => {
  const { proxy, har } = await recorded((url) => driveClient(url));
  const text = await readFile(har, 'utf8');
  expect(text).not.toContain(KEY);
  // As a browser would have it: the page's own assets from another origin, in between.
  const doc = JSON.parse(text);
  const asset = structuredClone(doc.log.entries[0]);
  asset.request.url = 'https://cdn.example.com/app.js';
  asset.request.method = 'GET';
  doc.log.entries.splice(1, 0, asset);
  await writeFile(har, JSON.stringify(doc));
  const before = upstream.lines.length;
  const { s, done } = judge(har, proxy.dir);
  expect(await done).toBe(1);
  expect(upstream.lines.length).toBe(before); // nothing sent
  expect(proxy.findings()).toHaveLength(5);
  expect(s.findings().sort()).toEqual(proxy.findings().sort());
  expect(s.text()).toContain('1 exchange(s) with other origins (https://cdn.example.com) left out');
  const json = JSON.parse(
    await readFile(path.join(proxy.dir, 'har-reports', 'contract-results.json'), 'utf8'),
  );
  expect(json.summary.failed).toBe(5);
});

it('re-sends a recording with --replay-to, the key put back, writes only when allowed', async () => {
  const { proxy, har } = await recorded(async (url) => {
    await driveClient(url);
    const form = new FormData();
    form.append('files', new Blob(['bytes']), 'a.txt');
    const r = await fetch(`${url}/ai/knowledge-bases/kb_9/documents?appkey=${KEY}`, {
      method: 'POST',
      body: form,
    });
    await r.arrayBuffer();
  });
  const before = upstream.lines.length;
  const { s, done } = judge(har, proxy.dir, { replayTo: upstream.url, appkey: KEY });
  expect(await done).toBe(1);
  const sent = upstream.lines.slice(before);
  expect(sent).toHaveLength(6);
  expect(sent.every((l) => l.includes(`appkey=${KEY}`))).toBe(true);
  expect(sent.some((l) => l.includes('/documents'))).toBe(false);
  expect(s.text()).toContain('1 recorded request(s) that write were not re-sent (--allow-writes)');
  expect(s.findings().sort()).toEqual(proxy.findings().sort());
  expect(s.text()).not.toContain(KEY);

  const again = judge(har, proxy.dir, { replayTo: upstream.url, appkey: KEY, allowWrites: true });
  expect(await again.done).toBe(1);
  expect(upstream.lines.slice(before + 6).filter((l) => l.includes('/documents'))).toHaveLength(1);
});
