/**
 * A property (or component) named `properties` whose schema is a `$ref` is valid OpenAPI and is
 * read as written (issue 26, found by the corpus run: the repair of a misplaced
 * `properties: { $ref }` took the map of properties for a schema and refused every Azure resource
 * schema with "properties: must be object"). The misplaced form is still repaired.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatorFor } from 'dataapi/runtime/shared';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generality/property-named-properties.yaml');

describe('a property named properties', () => {
  it('loads as written; only the misplaced $ref is repaired', async () => {
    const spec = await loadSpec(SPEC);
    const schemas = (spec.document['components'] as any).schemas;
    expect(schemas.Resource.properties.properties).toEqual({
      $ref: '#/components/schemas/ResourceProperties',
    });
    expect(schemas.Resource.allOf).toBeUndefined();
    expect(schemas.properties.properties.properties).toEqual({
      $ref: '#/components/schemas/ResourceProperties',
    });
    expect((spec.repairs ?? []).map((r) => r.pointer)).toEqual([
      '/components/schemas/B/properties/$ref',
    ]);
  });

  it('validates requests against the referenced schema', async () => {
    const model = normalise(await loadSpec(SPEC));
    const op = model.operations.find((o) => o.id === 'addResource')!;
    const validate = validatorFor(model).compile(op.body!.schema);
    expect(validate({ properties: { size: 1 } })).toBe(true);
    expect(validate({ properties: {} })).toBe(false);
    expect(validate({ etag: 'x' })).toBe(false);
  });
});
