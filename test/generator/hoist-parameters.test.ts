/**
 * A parameter `$ref` into another operation's list moves to components.parameters (corpus:
 * opensuse.org/obs): openapi-typescript wrote it as an indexed access into an optional `query`
 * group, and types.ts did not compile.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { hoistDeepSchemaRefs } from '../../generator/load-hoist.ts';
import { hoistPathParameterRefs } from '../../generator/load-hoist-params.ts';
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

describe('the names hoisted components get', () => {
  const get = (parameters: unknown[]) => ({ get: { parameters } });
  const ref = (to: string) => ({ $ref: to });

  it('a parameter: its name cleaned (not trimmed), `Parameter` for none, numbered when taken', () => {
    const doc = {
      paths: {
        '/a': get([
          { name: 'page[]', in: 'query' },
          { name: '#', in: 'query' },
        ]),
        '/b': get([ref('#/paths/~1a/get/parameters/0'), ref('#/paths/~1a/get/parameters/1')]),
        '/c': get([{ name: 'page[]', in: 'query' }, { in: 'query' }]),
        '/d': get([ref('#/paths/~1c/get/parameters/0'), ref('#/paths/~1c/get/parameters/1')]),
      },
    } as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    hoistPathParameterRefs(doc);
    expect(Object.keys(doc['components'].parameters)).toEqual([
      'page_',
      '_',
      'page__2',
      'Parameter',
    ]);
    expect(doc['paths']['/d'].get.parameters[0]).toEqual(ref('#/components/parameters/page__2'));
  });

  it("a schema: the author's name, else its place, trimmed, numbered when taken", () => {
    const at = (p: string) => ref(`#/components/schemas/Pet/properties/${p}`);
    const doc = {
      components: {
        schemas: { Pet: { properties: { tag: {}, label: {}, owner: {}, x: {} } } },
      },
      paths: {
        '/p': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': {
                    schema: {
                      properties: { a: at('tag'), b: at('label'), c: at('owner'), d: at('x') },
                    },
                  },
                },
              },
            },
          },
        },
      },
    } as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const hints: Record<string, string> = { tag: ' Tag! ', label: 'Tag', x: '@' };
    hoistDeepSchemaRefs(doc, (p) => hints[p.split('/').pop()!]);
    // Shallowest pointer first, so `x` before the others.
    expect(Object.keys(doc['components'].schemas)).toEqual([
      'Pet',
      'Pet_x',
      'Tag',
      'Tag_2',
      'Pet_owner',
    ]);
  });
});
