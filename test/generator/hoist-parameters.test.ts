/**
 * A parameter `$ref` into another operation's list moves to components.parameters (corpus:
 * opensuse.org/obs): openapi-typescript wrote it as an indexed access into an optional `query`
 * group, and types.ts did not compile.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { renderTypes } from '../../generator/emit/typescript-side.mjs';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES, typesErrors } from './helpers.ts';

const SPEC = path.join(FIXTURES, 'generality/path-parameter-refs.yaml');

describe('parameter $refs into paths', () => {
  it('are hoisted: no $ref into #/paths is left, and types.ts type-checks', async () => {
    const spec = await loadSpec(SPEC);
    expect(JSON.stringify(spec.document)).not.toMatch(/"\$ref":"#\/paths/);
    const types = await renderTypes(spec.document);
    expect(types).not.toMatch(/\["parameters"\]\["query"\]\[/);
    expect(await typesErrors(types)).toEqual([]);
  });

  it('keep what each operation takes, the schema into a moved parameter included', async () => {
    const model = normalise(await loadSpec(SPEC));
    const op = (id: string) => model.operations.find((o) => o.operationId === id)!;
    const names = (id: string) =>
      Object.entries(op(id).parameters)
        .flatMap(([place, list]) => list.map((p: { name: string }) => `${place}:${p.name}`))
        .sort();
    expect(names('listRequests')).toEqual(['header:X-Trace', 'query:limit', 'query:withhistory']);
    expect(names('getRequest')).toEqual(['header:X-Trace', 'path:id', 'query:withhistory']);
    expect(names('getHistory')).toEqual(['path:id', 'query:max', 'query:withhistory']);
    const max = op('getHistory').parameters.query.find((p) => p.name === 'max')!;
    const ref = String((max.schema as Record<string, unknown>)['$ref']);
    const defs = model.schemaRoot['$defs'] as Record<string, unknown>;
    expect(defs[decodeURIComponent(ref.split('/').pop()!)]).toEqual({
      type: 'integer',
      minimum: 1,
    });
  });
});

describe('a schema $ref that names a parameter, not a schema', () => {
  it('is read as {} with a finding at the reference, not a refusal of the description', async () => {
    const spec = await loadSpec(path.join(FIXTURES, 'generality/schema-ref-to-parameter.yaml'));
    const found = normalise(spec).findings.filter((f) => f.code === 'schema-ref-not-schema');
    expect(found.map((f) => f.pointer)).toEqual([
      '/paths/~1vehicles/get/parameters/0/schema/items/$ref',
    ]);
    expect(found[0]?.message).toMatch(/names a parameter/);
  });
});
