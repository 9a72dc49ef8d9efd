/**
 * types.ts comes from openapi-typescript's transform called directly, without the Redocly lint and
 * bundle passes its openapiTS() runs first (generator/emit/typescript-side.mjs): the text must be
 * openapiTS()'s, byte for byte, on the service, third-party and hostile descriptions.
 */
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import {
  nullableWithRequired,
  qualifyDiscriminatorMappings,
  renderTypes,
  typeableSchemas,
} from '../../generator/emit/typescript-side.mjs';
import { FIXTURES, OAS_EXAMPLES, ROOT } from './helpers.ts';

const OPTIONS = { alphabetize: false, defaultNonNullable: false, emptyObjectsUnknown: true };

/**
 * What renderTypes gave before: openapiTS() on a copy of the document, mappings qualified, with
 * the documented repairs of what openapi-typescript cannot type (nullable WithRequired, typeable
 * schemas) applied the same way.
 */
async function throughOpenapiTS(document: unknown): Promise<string> {
  const copy = structuredClone(document);
  qualifyDiscriminatorMappings(copy);
  typeableSchemas(copy);
  return nullableWithRequired(astToString(await openapiTS(copy as never, OPTIONS)));
}

describe('renderTypes', () => {
  it("gives openapiTS()'s text on the service and real third-party descriptions", async () => {
    const specs = [
      `${ROOT}/spec/openapi.yaml`,
      `${FIXTURES}/third-party/museum.yaml`,
      `${FIXTURES}/third-party/twilio-verify-v2.json`,
      `${FIXTURES}/third-party/box.json`,
      `${FIXTURES}/generator-split/openapi.yaml`,
      `${OAS_EXAMPLES}/3.0/json/discriminators.json`,
      `${OAS_EXAMPLES}/3.0/json/polymorphism.json`,
      `${OAS_EXAMPLES}/3.1/json/schema-types.json`,
    ];
    for (const spec of specs) {
      const { document } = await loadSpec(spec);
      const ours = await renderTypes(document);
      expect(ours.length, spec).toBeGreaterThan(100);
      expect(ours, spec).toBe(await throughOpenapiTS(document));
    }
  });

  it('gives the same text from the source JSON as from the document, trap words and escapes too', async () => {
    const { readFile } = await import('node:fs/promises');
    const hostile = `${FIXTURES}/generator-hostile.json`;
    const source = await readFile(hostile, 'utf8');
    const { document } = await loadSpec(hostile);
    const lent = await renderTypes(document);
    expect(lent).toContain('hasOwnProperty');
    expect(await renderTypes(JSON.parse(source), { owned: true, source })).toBe(lent);
    // An escaped word the source text hides: found in the document's JSON all the same.
    const escaped = source
      .replace(/hasOwnProperty/g, 'hasOwnPropert\\u0079')
      .replace(/__proto__/g, '\\u005f_proto__');
    expect(await renderTypes(JSON.parse(escaped), { owned: true, source: escaped })).toBe(lent);
  });

  it('leaves a document it does not own as it was, and may change one it owns', async () => {
    const { document } = await loadSpec(`${OAS_EXAMPLES}/3.0/json/discriminators.json`);
    const before = JSON.stringify(document);
    const lent = await renderTypes(document);
    expect(JSON.stringify(document)).toBe(before);
    expect(await renderTypes(structuredClone(document), { owned: true })).toBe(lent);
  });
});
