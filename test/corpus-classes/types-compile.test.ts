/**
 * Descriptions whose generated code did not type-check (second corpus, issue 48, stage 1), one
 * small description per class: each is generated as a user generates it, and the whole tree is
 * type-checked, with a file of ours that uses the types (so that a type degraded to `unknown`
 * would show: values it should refuse are marked `@ts-expect-error`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, scratch, typecheck } from '../generator/helpers.ts';
import { fixture, lineOf, modelOf } from './helpers.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await cleanup(dir);
});

/** Generates the fixture, adds `uses` (a module importing types.ts), type-checks the tree. */
async function generateAndCheck(name: string, uses: string) {
  const out = await scratch(`corpus-types-${name.replace(/\W+/g, '-')}`);
  dirs.push(out);
  const gen = await cli('generate', '--spec', fixture(name), '--out', out, '--force');
  expect(gen.stderr + gen.stdout).toMatch(/dataapi generate: \d+ operations/);
  expect(gen.code).toBe(0);
  await writeFile(
    path.join(out, 'uses.ts'),
    `import type { components, operations } from './types.ts';\n${uses}`,
  );
  const tsc = await typecheck(out);
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.code).toBe(0);
  const { readFile } = await import('node:fs/promises');
  return readFile(path.join(out, 'types.ts'), 'utf8');
}

describe('generated types.ts that did not type-check', () => {
  it('a schema that holds itself in a union or a list (TS2502): a recursive type alias, else unknown with a finding', async () => {
    const types = await generateAndCheck(
      'recursive-union.yaml',
      [
        'export const value: components["schemas"]["Value"] = ["a", ["b", null, { k: "c" }], null];',
        'export const pair: components["schemas"]["Pair"] = { left: [[1, [true]]], value: "v" };',
        '// @ts-expect-error a number is no Value',
        'export const notValue: components["schemas"]["Value"] = [1];',
        '// @ts-expect-error Left holds numbers and lists of Right, not strings',
        'export const notLeft: components["schemas"]["Left"] = ["a"];',
        '',
      ].join('\n'),
    );
    expect(types).toMatch(/^\s+Value: components_schemas_Value;$/m);
    expect(types).toMatch(
      /^type components_schemas_Left = number \| components_schemas_Right\[\];$/m,
    );
    // One of its own branches with nothing between: unknown, and said where it is written.
    expect(types).toMatch(/^\s+Loop: unknown;$/m);
    const file = fixture('recursive-union.yaml');
    const model = await modelOf('recursive-union.yaml');
    expect(
      model.findings
        .filter((f) => f.code === 'schema-self-composed')
        .map((f) => `${f.pointer} ${f.file}:${f.line}`),
    ).toEqual([`/components/schemas/Loop ${file}:${lineOf(file, '    Loop:') + 1}`]);
    // A schema that holds itself only inside an object is left as openapi-typescript writes it.
    expect(types).toMatch(
      /\bNamed: \{\s+\[key: string\]: components\[["']schemas["']\]\[["']Value["']\];/,
    );
  });

  it('a $ref whose pointer goes through a $ref (TS2339): pointed at what it resolves to', async () => {
    await generateAndCheck(
      'ref-chains/through.yaml',
      [
        'type Events = operations["listEvents"]["responses"][200]["content"]["application/json"];',
        'export const events: Events = [{ kind: "transfer" }];',
        '// @ts-expect-error kind is a string',
        'export const wrong: Events = [{ kind: 1 }];',
        '',
      ].join('\n'),
    );
    const model = await modelOf('ref-chains/through.yaml');
    const list = model.operations.find((o) => o.operationId === 'listEvents');
    // The events' items, hoisted as any deep `$ref`'s target is: the schema of Block's events.
    expect(list?.responses[0]?.schema).toEqual({
      type: 'array',
      items: { $ref: 'urn:dataapi:spec#/$defs/Block_events_items' },
    });
  });

  it('a $ref the bundler points into itself (split files): its value brought in', async () => {
    await generateAndCheck(
      'ref-chains/self/openapi.yaml',
      [
        'type Search = NonNullable<operations["search"]["requestBody"]>["content"]["application/json"];',
        'export const search: Search = { query: { terms: ["a"], nested: { query: { terms: ["b"] } } } };',
        '// @ts-expect-error terms are strings',
        'export const wrong: Search = { query: { terms: [1] } };',
        'type Answer = operations["search"]["responses"][200]["content"]["application/json"];',
        'export const answer: Answer = { nested: { query: { terms: ["c"] } }, terms: ["c"] };',
        '// @ts-expect-error nested holds a query',
        'export const wrongAnswer: Answer = { nested: { query: 1 } };',
        '',
      ].join('\n'),
    );
    // The description written beside the `$ref` is kept.
    const model = await modelOf('ref-chains/self/openapi.yaml');
    expect(JSON.stringify(model)).toContain('what to search for');
  });
});
