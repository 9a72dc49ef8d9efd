/** Deprecation, sunset and successor in the description: the model reads them, lint checks them. */
import { describe, expect, it } from 'vitest';
import { findingOfProblem, lintSpec } from '../../generator/lint/index.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { deprecationHeaders, isCalendarDay } from '../../model/lifecycle.ts';
import { NEWS, tempDir, V1, V2, variant } from './helpers.ts';

const BEFORE = '2026-11-26';
const brief = (r: Awaited<ReturnType<typeof lintSpec>>) =>
  r.findings.map((f) => `${f.severity} ${f.code} ${f.pointer}`);
const SUNSET = '/paths/~1v1~1news/get/x-dataapi-sunset';

describe('deprecation in the description', () => {
  it('is read into the model, with the successor by its model id', async () => {
    const model = normalise(await loadSpec(NEWS));
    const [v1, v2] = model.operations;
    expect(v1).toMatchObject({
      id: 'listNews',
      deprecated: true,
      deprecation: { since: '2026-01-15', sunset: '2027-06-30', successor: 'listNewsV2' },
    });
    expect(v1!.parameters.query[0]).toMatchObject({ name: 'topic', deprecated: true });
    expect(v2!.deprecated).toBe(false);
    expect(v2!.deprecation).toBeUndefined();
    expect(deprecationHeaders(model, v1!)).toEqual({
      deprecation: `@${Date.UTC(2026, 0, 15) / 1000}`,
      sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
      link: '</v2/news>; rel="successor-version"; title="listNewsV2"',
    });
    expect(deprecationHeaders(model, v2!)).toBeUndefined();
  });

  it('tells real calendar days from look-alikes', () => {
    expect(['2027-06-30', '2028-02-29'].map(isCalendarDay)).toEqual([true, true]);
    expect(
      ['2027-02-29', '2027-6-30', '30.06.2027', '2027-06-30T00:00Z'].map(isCalendarDay),
    ).toEqual([false, false, false, false]);
  });

  it('lints clean before the sunset, and as an error on and after it', async () => {
    expect(brief(await lintSpec(NEWS, { today: BEFORE }))).toEqual([]);
    for (const today of ['2027-06-30', '2030-01-01']) {
      const report = await lintSpec(NEWS, { today });
      expect(brief(report)).toEqual([`error deprecation-sunset ${SUNSET}`]);
      expect(report.findings[0]!.message).toContain(`today is ${today}`);
      expect(report.findings[0]!.line).toBeTypeOf('number');
    }
  });

  it('reports a malformed day, a sunset on a live operation and an unknown successor', async () => {
    const dir = tempDir('lifecycle-lint');
    const badDay = variant(dir, 'bad-day', (d) =>
      d.setIn([...V1, 'x-dataapi-sunset'], '2027-02-30'),
    );
    expect(brief(await lintSpec(badDay, { today: BEFORE }))).toEqual([
      `error deprecation-sunset ${SUNSET}`,
    ]);
    const early = variant(dir, 'early', (d) => d.setIn([...V1, 'x-dataapi-sunset'], '2025-12-31'));
    expect((await lintSpec(early, { today: '2025-01-01' })).findings[0]!.message).toContain(
      'must come after the deprecation',
    );
    const notDeprecated = variant(dir, 'not-deprecated', (d) =>
      d.setIn([...V2, 'x-dataapi-sunset'], '2028-01-01'),
    );
    expect(brief(await lintSpec(notDeprecated, { today: BEFORE }))).toEqual([
      'error deprecation-sunset /paths/~1v2~1news/get/x-dataapi-sunset',
    ]);
    const unknown = variant(dir, 'unknown', (d) =>
      d.setIn([...V1, 'x-dataapi-successor'], 'listNewsV3'),
    );
    const report = await lintSpec(unknown, { today: BEFORE });
    expect(brief(report)).toEqual([
      'error deprecation-successor /paths/~1v1~1news/get/x-dataapi-successor',
    ]);
    expect(report.findings[0]!.message).toContain('"listNewsV3"');
    const itself = variant(dir, 'itself', (d) =>
      d.setIn([...V1, 'x-dataapi-successor'], 'listNews'),
    );
    expect((await lintSpec(itself, { today: BEFORE })).findings[0]!.message).toBe(
      'an operation cannot be its own successor',
    );
  });

  it("files a problem under its own code, wherever it is (never by its pointer's look)", async () => {
    const dir = tempDir('lifecycle-codes');
    // A malformed business code group that happens to be called like a life-cycle extension.
    const group = variant(dir, 'group', (d) =>
      d.setIn(['x-dataapi-business-code-groups', 'x-dataapi-successor'], { success: 'no' }),
    );
    expect(brief(await lintSpec(group, { today: BEFORE }))).toEqual([
      'error extension-invalid /x-dataapi-business-code-groups/x-dataapi-successor',
    ]);
    // The normaliser's problems carry the code lint reports them under.
    const both = variant(dir, 'both', (d) => {
      d.setIn([...V2, 'x-dataapi-sunset'], '2028-01-01');
      d.setIn([...V1, 'x-dataapi-successor'], 'listNewsV3');
    });
    const codes: string[] = [];
    normalise(await loadSpec(both), {
      onProblems: (problems) => codes.push(...problems.map((p) => `${p.code} ${p.pointer}`)),
    });
    expect(codes.sort()).toEqual([
      'deprecation-successor /paths/~1v1~1news/get/x-dataapi-successor',
      'deprecation-sunset /paths/~1v2~1news/get/x-dataapi-sunset',
    ]);
    // A life-cycle problem wherever a loader moved it keeps its code; a pointer ending like a
    // life-cycle extension does not make an extension problem one.
    const message = 'm';
    expect(
      findingOfProblem({ code: 'deprecation-successor', pointer: '/components/x-moved', message }),
    ).toEqual({ code: 'deprecation-successor', pointer: '/components/x-moved', message });
    expect(
      findingOfProblem({
        code: 'spec-extension',
        pointer: '/paths/~1a/get/x-dataapi-sunset',
        message,
      }).code,
    ).toBe('extension-invalid');
  });

  it('refuses to generate from a malformed life cycle', async () => {
    const dir = tempDir('lifecycle-norm');
    const file = variant(dir, 'bad', (d) =>
      d.setIn([...V1, 'x-dataapi-deprecated-since'], 20260115),
    );
    const spec = await loadSpec(file);
    expect(() => normalise(spec)).toThrow(
      /#\/paths\/~1v1~1news\/get\/x-dataapi-deprecated-since: must be a calendar day YYYY-MM-DD/,
    );
  });
});
