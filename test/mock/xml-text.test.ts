/**
 * XML text read back as written (corpus, amazonaws.com/cloudformation: the mock answered
 * `<PublisherName> </PublisherName>`, a valid one-space name, and the suite read it back trimmed
 * to "", which fails `minLength: 1`). Whitespace in a string, a carriage return and character
 * references survive the way from the mock's writer to the suite's reader.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { draw } from 'dataapi/runtime/sampler';
import { toXml, validatorFor } from 'dataapi/runtime/shared';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { xmlFault, xmlValue } from '../../runtime/xml/read.ts';
import { FIXTURES } from '../generator/helpers.ts';

const SPEC = path.join(FIXTURES, 'formats/xml-text.yaml');

async function answer(): Promise<{ model: ServiceModel; schema: any }> {
  const model = normalise(await loadSpec(SPEC));
  return { model, schema: model.operations[0]!.success!.schema };
}

describe('XML text read back as written', () => {
  it('keeps whitespace-only and padded strings, carriage returns and attribute layout', async () => {
    const { model, schema } = await answer();
    const value = {
      TypeSummaries: [
        { PublisherName: ' ', Label: '\t', Count: 2, Public: true },
        { PublisherName: ' a\r\nb\rc ', Label: 'x\ny "z" & <w>' },
      ],
    };
    const text = toXml(model, schema, value);
    expect(xmlFault(text)).toBeUndefined();
    expect(xmlValue(model, schema, text)).toEqual({ value });
  });

  it("round-trips every sampled answer the schema accepts (the mock's values, seeded)", async () => {
    const { model, schema } = await answer();
    const validate = validatorFor(model).compile(schema);
    const lost: unknown[] = [];
    let padded = 0; // draws with a name that starts or ends with whitespace: what trimming lost
    for (let seed = 1; seed <= 60; seed++) {
      const { value, valid } = draw(model, schema, { seed, preferExamples: false });
      if (!valid) continue;
      const names = (value as any).TypeSummaries?.map((t: any) => t.PublisherName) ?? [];
      padded += names.filter((n: unknown) => typeof n === 'string' && /^\s|\s$/.test(n)).length;
      const read = xmlValue(model, schema, toXml(model, schema, value));
      if (!read || !('value' in read) || !validate(read.value)) lost.push(value);
      else expect(read.value).toEqual(value);
    }
    expect(lost).toEqual([]);
    expect(padded).toBeGreaterThan(0);
  });

  it('reads character references, and numbers and booleans laid out with spaces', async () => {
    const { model, schema } = await answer();
    const text = [
      '<ListTypesOutput><TypeSummaries>',
      '  <member Label="a&#9;b"><PublisherName>&#x20;x&#13;</PublisherName>',
      '    <Count> 7 </Count><Public>\n false\n</Public></member>',
      '</TypeSummaries></ListTypesOutput>',
    ].join('\n');
    expect(xmlValue(model, schema, text)).toEqual({
      value: { TypeSummaries: [{ Label: 'a\tb', PublisherName: ' x\r', Count: 7, Public: false }] },
    });
  });
});
