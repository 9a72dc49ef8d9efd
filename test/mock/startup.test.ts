/**
 * Examples are validated at start-up: by default a bad one is answered with a schema sample under
 * its name and reported as a finding; in strict mode it is a clear error naming the operation and
 * example.
 */
import { describe, expect, it } from 'vitest';
import type { Finding, Operation, ServiceModel } from 'dataapi/model';
import { validatorFor } from 'dataapi/runtime/shared';
import { createMock, MockExampleError, type MockOptions } from 'dataapi/runtime/mock';
import { model } from '../../generated/model.ts';

/** The model with getAirQuality's example "stale" made invalid (an AQI of 42, not a string). */
function staleAirQuality(): { broken: ServiceModel; op: Operation } {
  const broken = structuredClone(model) as ServiceModel;
  const op = broken.operations.find((o) => o.id === 'getAirQuality')!;
  const example = op.success!.examples.find((e) => e.name === 'stale')!;
  ((example.value as { Data: { AQI: unknown }[] }).Data[0] as { AQI: unknown }).AQI = 42;
  return { broken, op };
}

/**
 * A mock of `broken` (key `k`, no limits) and the findings it reports; `reported` resolves once
 * `until` holds for them (the background check reports after the start).
 */
async function mockWithFindings(
  broken: ServiceModel,
  options: Partial<MockOptions> = {},
  until: (findings: Finding[]) => boolean = () => false,
) {
  const findings: Finding[] = [];
  let done!: () => void;
  const reported = new Promise<void>((resolve) => (done = resolve));
  const app = await createMock(broken, {
    rateLimit: false,
    appkeys: ['k'],
    ...options,
    onFinding: (f) => {
      findings.push(f);
      if (until(findings)) done();
    },
  });
  return { app, findings, reported };
}

describe('start-up', () => {
  it('in strict mode, refuses an example that does not match its schema', async () => {
    const { broken } = staleAirQuality();
    const attempt = createMock(broken, { rateLimit: false, invalidExamples: 'error' });
    await expect(attempt).rejects.toBeInstanceOf(MockExampleError);
    await expect(attempt).rejects.toThrow(
      /"stale" of operation getAirQuality .*\n.*\/Data\/0\/AQI must be string/,
    );
  });

  it('in strict mode, refuses an error example that does not match its schema', async () => {
    const broken = structuredClone(model) as ServiceModel;
    const op = broken.operations.find((o) => o.id === 'getSslCertInfo')!;
    const response = op.responses.find((r) => r.status === '401')!;
    response.examples[0]!.value = 'not an object';
    await expect(
      createMock(broken, { rateLimit: false, invalidExamples: 'error' }),
    ).rejects.toThrow(/example "groupA" of operation getSslCertInfo .*response 401/);
  });

  it("with invalidExamples: 'skip', leaves the bad example out and says so", async () => {
    const { broken } = staleAirQuality();
    const skipped: string[] = [];
    const app = await createMock(broken, {
      rateLimit: false,
      appkeys: ['k'],
      invalidExamples: 'skip',
      onSkippedExample: (m) => skipped.push(m),
    });
    try {
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toContain('"stale" of operation getAirQuality');
      const url = '/Weather/AirQuality?appkey=k&city=x';
      expect((await app.inject({ url, headers: { prefer: 'example=stale' } })).statusCode).toBe(
        400,
      );
      expect((await app.inject({ url })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('by default, answers a bad example with a schema sample under its name, as a finding', async () => {
    const { broken, op } = staleAirQuality();
    const { app, findings } = await mockWithFindings(broken);
    try {
      expect(findings.map((f) => f.code)).toEqual(['example-invalid']);
      expect(findings[0]).toMatchObject({ operation: 'getAirQuality' });
      expect(findings[0]!.pointer).toMatch(/\/responses\/200\/content\/.*\/examples\/stale$/);
      expect(findings[0]!.message).toContain('answered with a schema sample instead');
      const url = '/Weather/AirQuality?appkey=k&city=x';
      const res = await app.inject({ url, headers: { prefer: 'example=stale' } });
      expect(res.statusCode).toBe(200);
      const check = validatorFor(broken).compile(op.success!.schema!);
      expect(check(res.json())).toBe(true);
      // The bad value is gone (the whole text may hold a 42 elsewhere: the response time).
      expect((res.json() as { Data: { AQI: unknown }[] }).Data[0]?.AQI).not.toBe(42);
    } finally {
      await app.close();
    }
  });

  it("with check: 'first-use', checks an operation's examples when it is first asked for", async () => {
    const { broken } = staleAirQuality();
    const { app, findings } = await mockWithFindings(broken, { check: 'first-use' });
    try {
      expect(findings).toEqual([]);
      const ip = await app.inject({ url: '/v2/location/ip?appkey=k&ip=8.8.8.8' });
      expect(ip.statusCode).toBe(200);
      expect(findings).toEqual([]); // another operation's examples are still unchecked
      const url = '/Weather/AirQuality?appkey=k&city=x';
      const res = await app.inject({ url, headers: { prefer: 'example=stale' } });
      expect(res.statusCode).toBe(200);
      expect(findings.map((f) => [f.code, f.operation])).toEqual([
        ['example-invalid', 'getAirQuality'],
      ]);
      // The bad value is gone (the whole text may hold a 42 elsewhere: the response time).
      expect((res.json() as { Data: { AQI: unknown }[] }).Data[0]?.AQI).not.toBe(42);
      await app.inject({ url });
      expect(findings).toHaveLength(1); // checked once
    } finally {
      await app.close();
    }
  });

  it("with check: 'first-use', a request schema Ajv cannot compile answers 501 on first use", async () => {
    const broken = structuredClone(model) as ServiceModel;
    const op = broken.operations.find((o) => o.id === 'getAirQuality')!;
    op.querySchema = { type: 'object', properties: { city: { $ref: '#/components/schemas/No' } } };
    const { app, findings } = await mockWithFindings(broken, { check: 'first-use' });
    try {
      expect(findings).toEqual([]);
      const res = await app.inject({ url: '/Weather/AirQuality?appkey=k&city=x' });
      expect(res.statusCode).toBe(501);
      expect(res.body).toMatch(/getAirQuality cannot be served: its querystring schema cannot be/);
      expect(findings.map((f) => [f.code, f.operation])).toEqual([
        ['operation-not-served', 'getAirQuality'],
      ]);
      const ip = await app.inject({ url: '/v2/location/ip?appkey=k&ip=8.8.8.8' });
      expect(ip.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("with check: 'background', reports a bad example once listening, without a request", async () => {
    const { broken } = staleAirQuality();
    const other = broken.operations.find((o) => o.id === 'getFundBasicInfo')!; // no preview route
    other.querySchema = { type: 'object', properties: { x: { $ref: '#/components/schemas/No' } } };
    const { app, findings, reported } = await mockWithFindings(
      broken,
      { check: 'background' },
      (all) => all.length === 2,
    );
    try {
      expect(findings).toEqual([]); // nothing checked before it listens
      await app.listen({ port: 0, host: '127.0.0.1' });
      await reported;
      expect(findings.map((f) => [f.code, f.operation]).sort()).toEqual([
        ['example-invalid', 'getAirQuality'],
        ['operation-not-served', 'getFundBasicInfo'],
      ]);
      expect(findings.find((f) => f.code === 'example-invalid')!.pointer).toMatch(
        /\/responses\/200\/content\/.*\/examples\/stale$/,
      );
      // Checked once: a request afterwards reports nothing new.
      const { port } = app.server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/Weather/AirQuality?appkey=k&city=x`, {
        headers: { prefer: 'example=stale' },
      });
      expect(res.status).toBe(200);
      expect(findings).toHaveLength(2);
    } finally {
      await app.close();
    }
  });

  /** The model with getAirQuality on a path find-my-way refuses (a wildcard only at the end). */
  const unroutable = (): ServiceModel => {
    const broken = structuredClone(model) as ServiceModel;
    broken.operations.find((o) => o.id === 'getAirQuality')!.path = '/Weather/*/AirQuality';
    return broken;
  };

  it('a path the router refuses answers 501 with a finding, the others serve', async () => {
    const broken = unroutable();
    const { app, findings } = await mockWithFindings(broken);
    try {
      expect(findings.map((f) => [f.code, f.operation])).toEqual([
        ['operation-not-served', 'getAirQuality'],
      ]);
      expect(findings[0]!.message).toMatch(/its path cannot be routed: Wildcard must be the last/);
      const ip = await app.inject({ url: '/v2/location/ip?appkey=k&ip=8.8.8.8' });
      expect(ip.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("with check: 'first-use', a path the router refuses is found when its method is asked for", async () => {
    const broken = unroutable();
    const { app, findings } = await mockWithFindings(broken, { check: 'first-use' });
    try {
      expect(findings).toEqual([]); // GET's routes are not routed yet
      const refused = await app.inject({ url: '/Weather/*/AirQuality?appkey=k&city=x' });
      expect(refused.statusCode).toBe(501);
      expect(findings.map((f) => [f.code, f.operation])).toEqual([
        ['operation-not-served', 'getAirQuality'],
      ]);
      expect(findings[0]!.message).toMatch(/its path cannot be routed: Wildcard must be the last/);
      const ip = await app.inject({ url: '/v2/location/ip?appkey=k&ip=8.8.8.8' });
      expect(ip.statusCode).toBe(200);
      expect(findings).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it("with check: 'background', a path the router refuses is reported once listening", async () => {
    const broken = unroutable();
    const { app, findings, reported } = await mockWithFindings(
      broken,
      { check: 'background' },
      (all) => all.some((f) => f.code === 'operation-not-served'),
    );
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      await reported;
      expect(findings.filter((f) => f.code === 'operation-not-served')).toMatchObject([
        { operation: 'getAirQuality' },
      ]);
    } finally {
      await app.close();
    }
  });

  it('starts from the real spec', async () => {
    const app = await createMock(model, { rateLimit: false });
    expect((await app.inject({ url: '/__health' })).statusCode).toBe(200);
    await app.close();
  });
});
