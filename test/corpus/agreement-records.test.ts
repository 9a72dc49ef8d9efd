/**
 * The agreement run's results file and docs section (bench/corpus/agreement-records.ts) and its
 * worker pool's time bound (agreement-pool.ts), on records written here and a small worker
 * script: no corpus. The whole corpora run in `npm run corpus -- --agreement`.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../bench/corpus/agreement.ts';
import { classOf } from '../../bench/corpus/agreement.ts';
import { runPool } from '../../bench/corpus/agreement-pool.ts';
import {
  agreementSection,
  agreementTodo,
  latestAgreement,
  readAgreementRecords,
  withSection,
  type AgreementRecord,
} from '../../bench/corpus/agreement-records.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'agreement-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const finding = (name: string): Finding => ({
  operation: 'GET /a',
  location: 'query',
  name,
  kind: 'valid-refused',
  style: 'form',
  explode: true,
  detail: `querystring must have ${name}`,
});
const record = (id: string, over: Partial<AgreementRecord> = {}): AgreementRecord => ({
  id,
  outcome: 'ok',
  ms: 1,
  at: '2026-11-29T00:00:00.000Z',
  totals: { operations: 2, parameters: 3, bodies: 1, invalid: 5 },
  findings: [],
  ...over,
});
const withFindings = (id: string, ...names: string[]) =>
  record(id, {
    findings: names.map((n) => ({ ...finding(n), class: classOf(finding(n)), known: false })),
  });

describe('the agreement results file', () => {
  it('a rerun skips the ids recorded; the last line of an id wins; a line cut short is not a record', async () => {
    const file = path.join(dir, 'resume.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify(record('a', { outcome: 'timeout', totals: undefined })),
        JSON.stringify(record('b')),
        JSON.stringify(withFindings('a', 'x')),
        '{"id":"c","outco', // the run was stopped while writing c
      ].join('\n'),
    );
    const done = latestAgreement(await readAgreementRecords(file));
    expect([...done.keys()]).toEqual(['a', 'b']);
    expect(done.get('a')?.outcome).toBe('ok');
    expect(agreementTodo(['d', 'c', 'b', 'a'], done)).toEqual(['d', 'c']);
    expect(await readAgreementRecords(path.join(dir, 'none.jsonl'))).toEqual([]);
  });
});

describe('the agreement docs section', () => {
  const base = { name: 'second', title: 'T', seed: 48, known: [], timeoutS: 120 };

  it("over every id: the whole run's format (no coverage line), known decided from the list as it is now", () => {
    const records = latestAgreement([
      withFindings('a', 'x', 'y'),
      record('b', { outcome: 'unloadable', totals: undefined }),
      withFindings('c', 'z'),
    ]);
    const known = [{ class: 'valid-refused query (form, explode)', description: '*', reason: 'r' }];
    const s = agreementSection({ ...base, ids: ['a', 'b', 'c'], records, known });
    expect(s.unknown).toBe(false);
    expect(s.text).toBe(
      [
        '<!-- agreement:second -->',
        '',
        '### Agreement by construction: T',
        '',
        "Written by `npm run corpus -- --corpus second --agreement` (bench/corpus/agreement-run.ts, seeded with 48, one valid value per parameter and body): every parameter and request body of 2 descriptions (1 did not load: stage 1's finding), 4 operations; 6 parameters and 2 bodies sent valid, serialised as the suite sends them and read back as the mock and the server stubs read them (no server, no HTTP); 10 invalid values sent, each to be refused for the reason it was made. Known classes are listed in bench/corpus/agreement-known.json with their reasons.",
        '',
        '| class | findings | descriptions | known | example |',
        '| --- | ---: | ---: | --- | --- |',
        '| valid-refused query (form, explode) | 3 | 2 | yes | `a` GET /a x: querystring must have x |',
        '',
        '<!-- /agreement:second -->',
      ].join('\n'),
    );
    expect(agreementSection({ ...base, ids: ['a', 'b', 'c'], records }).unknown).toBe(true);
  });

  it('in part: how many of the corpus ran, that the figures say nothing about the rest, and what passed its time bound', () => {
    const records = latestAgreement([
      record('a'),
      record('b', { outcome: 'timeout', totals: undefined, message: 'no answer within 120 s' }),
    ]);
    const s = agreementSection({ ...base, ids: ['a', 'b', 'c', 'd'], records });
    expect(s.text).toContain(
      'Coverage of this record: **2 of 4** descriptions run; the figures say nothing about the rest',
    );
    expect(s.text).toContain('every parameter and request body of 1 descriptions (0 did not load');
    expect(s.text).toContain(
      '1 description did not finish (a time bound of 120 s, or the process died) and is not counted above: `b` (timeout).',
    );
    expect(s.text).toContain('No disagreement.');
    const doc = withSection(`# Corpus runs\n\n${s.text}\n\nafter\n`, 'second', 'NEW');
    expect(doc).toBe('# Corpus runs\n\nNEW\n\nafter\n');
  });
});

describe('the agreement worker pool', () => {
  // A worker as agreement-worker.ts is one: `hang` never answers, `die` exits, others answer.
  const script = path.join(dir, 'worker.mjs');
  writeFileSync(
    script,
    `process.on('message', (job) => {
       if (job.id === 'die') process.exit(3);
       if (job.id === 'hang') return;
       process.send({ id: job.id, outcome: 'ok', ms: 0, at: '', findings: [], pid: process.pid });
     });
     process.on('disconnect', () => process.exit(0));
     process.send({ ready: true });`,
  );

  it('a description past its time bound, or whose worker dies, is recorded as such, and the run goes on in a fresh worker', async () => {
    const got: (AgreementRecord & { pid?: number })[] = [];
    let spawned = 0;
    await runPool({
      ids: ['a', 'hang', 'b', 'die', 'c', 'd', 'e'],
      jobs: 1,
      timeoutMs: 1500,
      recycleAfter: 2,
      spawnWorker: () => {
        spawned++;
        return spawn(process.execPath, [script], {
          detached: true,
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
      },
      job: (id) => ({ id }),
      onRecord: async (r) => {
        got.push(r);
      },
    });
    expect(got.map((r) => `${r.id}:${r.outcome}`)).toEqual([
      'a:ok',
      'hang:timeout',
      'b:ok',
      'die:crashed',
      'c:ok',
      'd:ok',
      'e:ok',
    ]);
    expect(got[1]?.message).toBe('no answer within 1.5 s');
    expect(got[3]?.message).toBe('the worker exited (code 3)');
    // A fresh worker after the hang and after the death; c and d share one, e gets a new one (recycled).
    expect(got[4]?.pid).toBe(got[5]?.pid);
    expect(got[6]?.pid).not.toBe(got[5]?.pid);
    expect(spawned).toBe(4);
  });
});
