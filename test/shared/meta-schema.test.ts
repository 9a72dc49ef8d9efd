/**
 * The kept meta-schema validator (model/meta-schema-2020.cjs, written by
 * scripts/write-meta-schema.js): the file is what Ajv compiles now, and it refuses and accepts
 * schemas as an Ajv of the toolkit's options does, with the same message.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ServiceModel } from 'dataapi/model';
import { AJV_OPTIONS, createSchemaValidator } from '../../model/validate.ts';
// @ts-expect-error: a plain JavaScript script without declarations
import { META_FILE, META_OPTIONS, metaSchemaCode } from '../../scripts/write-meta-schema.js';

const SCHEMAS: unknown[] = [
  { type: 'string', minLength: 2 },
  { type: 'integer', minimum: '3' },
  { type: 'strin' },
  { type: ['string', 'null'], enum: ['a', null] },
  { properties: { a: { type: 'object', required: 'a' } } },
  { items: [{ type: 'string' }] },
  { prefixItems: [{ type: 'string' }], items: false },
  { $ref: 'urn:dataapi:spec#/$defs/thing' },
  { pattern: '([' },
  { allOf: {} },
  { oneOf: [], anyOf: [true] },
  { minLength: -1, maxItems: 1.5, multipleOf: 0 },
  { const: { a: [1, 2] }, examples: 'x' },
  { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'number' },
  { dependentRequired: { a: ['b', 'b'] } },
  { unevaluatedProperties: { type: 'string' }, additionalProperties: 'no' },
];

const root = () => ({ $id: 'urn:dataapi:spec', $defs: { thing: {} } });

/**
 * What an Ajv of the toolkit's options, checking schemas itself, says when it compiles a schema:
 * undefined when it takes it.
 */
function ajvVerdict(schema: unknown): string | undefined {
  const ajv = new Ajv2020({ ...AJV_OPTIONS });
  addFormats.default(ajv);
  ajv.addSchema(root());
  try {
    ajv.compile(schema as object);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function keptVerdict(schema: unknown): string | undefined {
  const model = { schemaRoot: root() };
  const v = createSchemaValidator(model as unknown as ServiceModel);
  try {
    v.compile(schema as JsonSchema);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('the kept meta-schema validator', () => {
  it('is what Ajv compiles now (after an Ajv upgrade: node scripts/write-meta-schema.js)', async () => {
    expect(META_OPTIONS).toEqual(AJV_OPTIONS); // compiled with the toolkit's options
    expect(readFileSync(META_FILE, 'utf8')).toBe(await metaSchemaCode());
  });

  it('refuses and accepts as Ajv does, with the same message', () => {
    const verdicts = SCHEMAS.map((s) => [JSON.stringify(s), keptVerdict(s), ajvVerdict(s)]);
    for (const [text, kept, ajv] of verdicts) expect(kept, text).toBe(ajv);
    // Both kinds are among them.
    expect(verdicts.filter(([, , ajv]) => ajv === undefined).length).toBeGreaterThan(3);
    expect(verdicts.filter(([, , ajv]) => ajv !== undefined).length).toBeGreaterThan(5);
  });
});
