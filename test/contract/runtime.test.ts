/**
 * The contract runtime's derivations, without a network: negative values come from the schemas
 * and stay invalid on the wire; requests carry the key the way each operation takes it; the
 * runtime works on third-party descriptions too.
 */
import { describe, expect, it } from 'vitest';
import { findOperation } from 'dataapi/runtime/shared';
import { model } from '../../generated/model.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { invalidValues, negativeCases } from '../../contract-tests/negatives.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { LocalScheduler, RemoteScheduler, serveScheduler } from '../../contract-tests/scheduler.ts';
import { FakeClock } from '../shared/fake-clock.ts';

const labels = (id: string) => negativeCases(model, findOperation(model, id)).map((c) => c.label);

describe('negative cases derived from the schemas', () => {
  it('pageSize of the ranking: 21, 0 and non-integers; nothing for the free-text name', () => {
    const l = labels('getGlobalUniversityRanking');
    expect(l).toContain('query pageSize=21 (above maximum 20)');
    expect(l).toContain('query pageSize=0 (below minimum 1)');
    expect(l).toContain('query pageSize="abc" (not integer)');
    expect(l).toContain('query pageSize=1.5 (not an integer)');
    // A query value is text: no "wrong type" exists for a string parameter.
    expect(l.some((x) => x.includes('query name'))).toBe(false);
  });

  it('admission body: score 751, the enumeration, missing required fields', () => {
    const l = labels('rankAdmissionMajorLines');
    expect(l).toContain('body field score=751 (above maximum 750)');
    // Bounded (rate limits cost time): one invalid value per field before a second one.
    expect(l.length).toBeLessThanOrEqual(24);
    expect(l).toContain('body field province missing (required)');
    expect(l).toContain('body field probability_sort="dataapi-not-in-enum" (not one of desc, asc)');
    expect(l).toContain('request body missing (required)');
  });

  it('air quality: the require-any-of group and the language enumeration', () => {
    const l = labels('getAirQuality');
    expect(l).toContain('none of location, city sent (one is required)');
    expect(l).toContain('query lang="dataapi-not-in-enum" (not one of zh, en)');
  });

  it('multipart fields are text: only enumeration violations, never types; never the body key', () => {
    const l = labels('uploadKnowledgeBaseDocuments');
    expect(l).toContain(
      'body field replace_existing="dataapi-not-in-enum" (not one of true, false)',
    );
    expect(l.some((x) => /tenant_id/.test(x))).toBe(false);
    expect(labels('extractArticle').some((x) => /appkey/.test(x))).toBe(false);
  });

  it('uses no value a coercing server could rescue, no pattern alone, a format only by a value outside it', () => {
    expect(invalidValues({ type: 'string', format: 'uri', pattern: '^a' }, false)).toEqual([
      { value: { not: 'a string' }, why: 'not a string', kind: 'type' },
      // The pattern refuses the format's value too: invalid by an assertion, a pattern case.
      { value: 'not-a-uri', why: 'not format uri, nor pattern ^a', kind: 'pattern' },
    ]);
    expect(invalidValues({ type: 'string', pattern: '^a' }, false)).toEqual([
      { value: { not: 'a string' }, why: 'not a string', kind: 'type' },
    ]);
    expect(invalidValues({ type: 'string', minLength: 1 }, true)).toEqual([]);
    expect(invalidValues({ type: 'boolean' }, true).map((b) => b.value)).toEqual(['abc']);
    expect(invalidValues({ type: 'array', items: { type: 'string' } }, true)).toEqual([]);
  });
});

describe('requests from the examples', () => {
  it('sends the key where each operation takes it, and none on the preview', () => {
    const key = 'k-1';
    const aq = findOperation(model, 'getAirQuality');
    const main = serialise(aq, validRequests(model, aq)[0]!, {
      path: aq.path,
      key: 'key',
      appkey: key,
      purpose: 't',
    });
    expect(main.pathAndQuery).toContain('appkey=k-1');
    const prev = serialise(aq, validRequests(model, aq)[0]!, {
      path: aq.preview!.path,
      key: 'none',
      appkey: key,
      purpose: 't',
    });
    expect(prev.pathAndQuery).not.toContain('appkey');
    const exam = findOperation(model, 'compareExamQuestions');
    const h = serialise(exam, validRequests(model, exam)[0]!, {
      path: exam.path,
      key: 'key',
      appkey: key,
      purpose: 't',
    });
    expect(h.headers['X-SERVICE-APPKEY']).toBe(key);
    expect(h.pathAndQuery).not.toContain(key);
    // The article example with the key in the body sends the real key there, not the example's.
    const art = findOperation(model, 'extractArticle');
    const inBody = validRequests(model, art).find((s) => s.name.includes('keyInBody'))!;
    const b = serialise(art, inBody, { path: art.path, key: 'key', appkey: key, purpose: 't' });
    expect(JSON.parse(b.body as string).appkey).toBe(key);
    expect(b.pathAndQuery).not.toContain('appkey');
  });

  it('works on third-party descriptions (plain JSON operations, no operationId)', async () => {
    for (const file of [
      '3.0/json/petstore.json',
      '3.1/json/petstore.json',
      '3.0/json/uspto.json',
    ]) {
      const m = normalise(await loadSpec(`node_modules/@readme/oas-examples/${file}`));
      for (const op of m.operations) {
        for (const spec of validRequests(m, op))
          expect(() =>
            serialise(op, spec, { path: op.path, key: 'key', appkey: 'k', purpose: 't' }),
          ).not.toThrow();
        expect(() => negativeCases(m, op)).not.toThrow();
      }
    }
  });

  it('sends cookie parameters in the Cookie header, not as headers of their name', async () => {
    const m = normalise(
      await loadSpec('node_modules/@readme/oas-examples/3.0/json/parameters-extreme.json'),
    );
    const op = m.operations[0]!;
    const spec = { ...validRequests(m, op)[0]!, cookie: { cookieString: 'a b', cookieInt: 7 } };
    const req = serialise(op, spec, { path: op.path, key: 'key', appkey: 'k', purpose: 't' });
    expect(req.headers['cookie']?.split('; ')).toEqual(
      expect.arrayContaining(['cookieString=a%20b', 'cookieInt=7']),
    );
    expect(Object.keys(req.headers)).not.toContain('cookieInt');
    expect(Object.keys(req.headers)).not.toContain('cookieString');
  });
});

describe('scheduling', () => {
  // Window arithmetic is tested with the pacer itself (test/shared/pacing.test.ts); here, what the
  // scheduler adds: the budget, and the same windows for every caller of a key.
  it('grants at most `limit` per window and then stops at the budget', async () => {
    const clock = new FakeClock();
    const s = new LocalScheduler(4, 0, undefined, clock);
    const limit = { limit: 2, per: 'second' as const, windowMs: 200, source: 'operation' as const };
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const pending = s.acquire('op', [limit]);
      await clock.advance(200);
      const g = await pending;
      if (g.ok) {
        times.push(clock.now());
        s.release('op', g.token);
      } else expect(g.reason).toMatch(/budget of 4/);
    }
    expect(times).toHaveLength(4);
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(200);
    expect(times[3]! - times[1]!).toBeGreaterThanOrEqual(200);
  });

  it('sends a release at once over loopback while many acquires wait for their slots', async () => {
    const clock = new FakeClock();
    const local = new LocalScheduler(undefined, 0, undefined, clock);
    const served = await serveScheduler(local);
    try {
      const remote = new RemoteScheduler(served.url);
      const limit = {
        limit: 1,
        per: 'second' as const,
        windowMs: 100,
        source: 'operation' as const,
      };
      const first = await remote.acquire('op', [limit]);
      // More waiting acquires than the eight sockets the workers' side once shared with releases.
      const waiting = Array.from({ length: 12 }, () => remote.acquire('op', [limit]));
      // Those still waiting fail when the server closes at the end.
      for (const w of waiting) w.catch(() => undefined);
      const released = new Promise<void>((resolve) => {
        const release = local.release.bind(local);
        local.release = (key, token, outcome) => (release(key, token, outcome), resolve());
      });
      if (first.ok) void remote.release('op', first.token);
      // Reaches the scheduler while the acquires wait (before: only after their 120 s lease).
      await released;
      await clock.advance(100);
      const next = await Promise.race(waiting);
      expect(next.ok).toBe(true);
    } finally {
      await served.close();
    }
  }); // the config's 300 s timeout is the safety net against the hang this test is about

  it('holds a slot while its request is in flight and frees it one window after the answer', async () => {
    const clock = new FakeClock();
    const s = new LocalScheduler(undefined, 0, undefined, clock);
    const limit = { limit: 1, per: 'second' as const, windowMs: 100, source: 'operation' as const };
    const first = await s.acquire('op', [limit]);
    let second: number | undefined;
    const next = s.acquire('op', [limit]).then(() => (second = clock.now()));
    // The first request is still "in flight" well past one window: no second grant yet.
    await clock.advance(250);
    expect(second).toBeUndefined();
    if (first.ok) s.release('op', first.token);
    await clock.advance(100);
    await next;
    expect(second).toBe(350);
  });
});
