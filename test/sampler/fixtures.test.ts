/**
 * The sampler over every schema of real descriptions (the service's and the four third-party
 * fixtures): each draw validates with Ajv against its schema, except schemas no value can satisfy
 * the way they are written (a oneOf whose options overlap): those are reported, never hidden.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { draw, effective } from 'dataapi/runtime/sampler';
import { everySchema, modelOf, ROOT, THIRD_PARTY } from './helpers.ts';

const FILES = [
  path.join(ROOT, 'spec/openapi.yaml'),
  path.join(THIRD_PARTY, 'museum.yaml'),
  path.join(THIRD_PARTY, 'twilio-verify-v2.json'),
  path.join(THIRD_PARTY, 'adyen-management-v3.json'),
  path.join(THIRD_PARTY, 'box.json'),
];

/** Each description loaded and normalised once for the file (Box's takes seconds; draws only read it). */
const models = new Map<string, ReturnType<typeof modelOf>>();
const modelOnce = (file: string) => {
  if (!models.has(file)) models.set(file, modelOf(file));
  return models.get(file)!;
};

/** Whether a oneOf is on the way from the schema to the failing value (overlapping options). */
function hasOneOf(errors: string[]): boolean {
  return errors.some((e) => /must match exactly one schema in oneOf/.test(e));
}

describe('a draw validates against its schema', () => {
  for (const file of FILES) {
    it(`every schema of ${path.basename(file)}`, async () => {
      const model = await modelOnce(file);
      const schemas = everySchema(model);
      expect(schemas.length).toBeGreaterThan(10);
      const invalid: string[] = [];
      for (const { where, schema, direction } of schemas) {
        const d = draw(model, schema, { direction, attempts: 6 });
        if (!d.valid && !hasOneOf(d.errors)) invalid.push(`${where}: ${d.errors.join('; ')}`);
      }
      expect(invalid).toEqual([]);
    }, 300_000);
  }

  it('Box: an allOf keeps the real parts (permissions/can_upload is a boolean)', async () => {
    const model = await modelOnce(path.join(THIRD_PARTY, 'box.json'));
    const folder = { $ref: 'urn:dataapi:spec#/$defs/Folder--Full' };
    const d = draw(model, folder);
    expect(d.errors).toEqual([]);
    const value = d.value as { permissions?: { can_upload?: unknown } };
    expect(typeof value.permissions?.can_upload).toBe('boolean');
    expect(effective(model, folder).s.properties).toHaveProperty('permissions');
  });
});
