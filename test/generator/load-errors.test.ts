/**
 * Load: a bad description fails with the file, the JSON pointer and the line and column, the CLI
 * exits 2 and nothing is written; a split description with external `$ref`s loads and generates.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, parseSpecText, SpecError } from '../../generator/load.ts';
import { CATALOGUE } from '../../model/diagnostics.ts';
import { cleanup, cli, FIXTURES, ROOT, scratch, snapshot, type Run } from './helpers.ts';

const rel = (p: string) => path.relative(ROOT, path.join(FIXTURES, p));

interface Case {
  name: string;
  spec: string;
  /** The file the first problem is in (a sub-file of a split description). */
  file: string;
  pointer: string;
  line: number;
  column: number;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'YAML syntax error',
    spec: 'generator-load/bad-syntax.yaml',
    file: 'generator-load/bad-syntax.yaml',
    pointer: '/paths/~1pets/get/responses/200/content/application~1json/schema',
    line: 15,
    column: 3,
    message: /Flow map/,
  },
  {
    name: 'schema-invalid operation (YAML)',
    spec: 'generator-load/bad-operation.yaml',
    file: 'generator-load/bad-operation.yaml',
    pointer: '/paths/~1pets/get/parameters/0/in',
    line: 11,
    column: 15,
    message: /allowed values: "query", "header", "path", "cookie"/,
  },
  {
    name: 'schema-invalid operation (JSON)',
    spec: 'generator-load/bad-operation.json',
    file: 'generator-load/bad-operation.json',
    pointer: '/paths/~1pets/get/responses/200/content',
    line: 9,
    column: 52,
    message: /must be object/,
  },
  {
    name: 'unresolvable internal $ref',
    spec: 'generator-load/bad-ref.yaml',
    file: 'generator-load/bad-ref.yaml',
    pointer: '/paths/~1pets/get/responses/200/content/application~1json/schema/$ref',
    line: 15,
    column: 23,
    message: /points nowhere: this file has nothing at #\/components\/schemas\/Missing/,
  },
  {
    name: 'unsupported version',
    spec: 'generator-load/bad-version.yaml',
    file: 'generator-load/bad-version.yaml',
    pointer: '/openapi',
    line: 5,
    column: 10,
    message: /unsupported .*"3\.2\.0".*3\.0\.x and 3\.1\.x/,
  },
  {
    name: 'a Swagger version other than 2.0, pointed at its swagger line',
    spec: 'generator-load/bad-swagger.yaml',
    file: 'generator-load/bad-swagger.yaml',
    pointer: '/swagger',
    line: 6,
    column: 10,
    message:
      /unsupported Swagger version "1\.2": dataapi reads Swagger 2\.0, OpenAPI 3\.0\.x and 3\.1\.x/,
  },
  {
    name: 'split description with a bad external $ref',
    spec: 'generator-load/split-bad/openapi.yaml',
    file: 'generator-load/split-bad/paths/pets.yaml',
    pointer: '/get/responses/200/content/application~1json/schema/$ref',
    line: 9,
    column: 19,
    message: /cannot read .*schemas\/nowhere\.yaml \(ENOENT\)/,
  },
  {
    name: 'split description with a schema-invalid operation in a sub-file',
    spec: 'generator-load/split-invalid/openapi.yaml',
    file: 'generator-load/split-invalid/paths/pets.yaml',
    pointer: '/get/parameters/0/style',
    line: 6,
    column: 14,
    message: /allowed values: "form"/,
  },
];

describe('loadSpec() on a bad description', () => {
  for (const c of cases) {
    it(`${c.name}: SpecError with file, pointer, line and column`, async () => {
      const err = await loadSpec(path.join(FIXTURES, c.spec)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SpecError);
      const e = err as SpecError;
      expect(e.file).toBe(rel(c.spec));
      const first = e.problems[0];
      expect(first).toMatchObject({ pointer: c.pointer, line: c.line, column: c.column });
      expect(first?.file ?? e.file).toBe(rel(c.file));
      expect(first?.message).toMatch(c.message);
      // The code comes from the catalogue (an error of the loader), in the form scripts match.
      expect(CATALOGUE[e.diagnostic]).toMatchObject({ severity: 'error', sources: ['load'] });
      expect(e.code).toBe(`DATAAPI_${e.diagnostic.toUpperCase().replace(/-/g, '_')}`);
    });
  }

  it('names a syntax error DATAAPI_SPEC_SYNTAX and a missing file DATAAPI_SPEC_UNREADABLE', async () => {
    const codeOf = (file: string) =>
      loadSpec(file).then(
        () => undefined,
        (e: unknown) => (e as SpecError).code,
      );
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dataapi-load-code-'));
    try {
      writeFileSync(path.join(dir, 'bad.yaml'), 'openapi: 3.1.0\ninfo: [unclosed\n');
      expect(await codeOf(path.join(dir, 'bad.yaml'))).toBe('DATAAPI_SPEC_SYNTAX');
      expect(await codeOf(path.join(dir, 'missing.yaml'))).toBe('DATAAPI_SPEC_UNREADABLE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadSpec() says the problem once, without the schema combinators echoing it', () => {
  it('a security scheme with a bad `in`: the enum error only, no "must match "else" schema"', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dataapi-load-echo-'));
    try {
      const file = path.join(dir, 'openapi.yaml');
      writeFileSync(
        file,
        [
          'openapi: 3.1.0',
          'info: { title: echo, version: "1" }',
          'paths: {}',
          'components:',
          '  securitySchemes:',
          '    key: { type: apiKey, name: appkey, in: queryx }',
          '',
        ].join('\n'),
      );
      const err = (await loadSpec(file).catch((e: unknown) => e)) as SpecError;
      expect(err).toBeInstanceOf(SpecError);
      expect(err.problems.map((p) => p.message)).toEqual([
        'must be equal to one of the allowed values: "query", "header", "cookie"',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('dataapi generate on a bad description', () => {
  const runs = new Map<string, Run>();
  const after = new Map<string, Record<string, string> | null>();
  let existingOut: string;
  let before: Record<string, string> | null;
  // Every other case runs into an existing output folder, the others into an absent one.
  const intoExisting = (i: number) => i % 2 === 1;

  let absentOut: string;
  afterAll(async () => {
    await cleanup(absentOut);
    await cleanup(existingOut);
  });

  beforeAll(async () => {
    absentOut = await scratch('load-absent');
    existingOut = await scratch('load-existing');
    // An output folder from a good run, which a bad run must leave byte for byte as it was.
    const good = await cli(
      'generate',
      '--spec',
      rel('generator-split/openapi.yaml'),
      '--out',
      path.relative(ROOT, existingOut),
    );
    expect(good.code, good.stderr).toBe(0);
    before = await snapshot(existingOut);
    // All cases at once: the CLI costs a process start each.
    await Promise.all(
      cases.map(async (c, i) => {
        const out = intoExisting(i)
          ? existingOut
          : path.join(absentOut, c.name.replace(/\W+/g, '-'));
        runs.set(
          c.name,
          await cli('generate', '--spec', rel(c.spec), '--out', path.relative(ROOT, out)),
        );
        after.set(c.name, await snapshot(out));
      }),
    );
  });

  cases.forEach((c, i) => {
    const where = intoExisting(i)
      ? 'existing output left byte-identical'
      : 'no output folder created';
    it(`${c.name}: exit 2, file:line:column and pointer on stderr, ${where}`, () => {
      const run = runs.get(c.name)!;
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${rel(c.file)}:${c.line}:${c.column} at #${c.pointer}`);
      expect(run.stderr).toContain('Nothing was written.');
      expect(run.stdout).toBe('');
      expect(after.get(c.name)).toEqual(intoExisting(i) ? before : null);
    });
  });

  it('a good run wrote the existing folder first (the comparison is not vacuous)', () => {
    expect(Object.keys(before ?? {})).toEqual(
      expect.arrayContaining(['.dataapi-manifest.json', 'model.json', 'types.ts']),
    );
  });
});

describe('a split description', () => {
  it('resolves external $refs (paths, schemas, parameters, a back-reference and recursion)', async () => {
    const spec = await loadSpec(path.join(FIXTURES, 'generator-split/openapi.yaml'));
    const text = JSON.stringify(spec.document);
    // Bundled: only internal references are left.
    expect(text).not.toMatch(/"\$ref":"\.\.?\//);
    const paths = spec.document['paths'] as Record<string, Record<string, { operationId: string }>>;
    expect(paths['/pets']?.['get']?.operationId).toBe('listPets');
    expect(paths['/pets/{petId}']?.['get']?.operationId).toBe('showPetById');
    // Schemas inlined by the bundler are hoisted back to components under their own names,
    // and no reference points inside another schema (openapi-typescript cannot type those).
    const components = spec.document['components'] as { schemas: Record<string, unknown> };
    expect(Object.keys(components.schemas).sort()).toEqual(['Error', 'NewPet', 'Pet']);
    expect(text).not.toMatch(/"\$ref":"#\/components\/schemas\/[^"]+\//);
    expect(text).not.toMatch(/"\$ref":"#\/paths\//);
  });

  it('reports a syntax error inside a referenced file with that file', async () => {
    const dir = await scratch('load-split-syntax', true);
    await writeFile(
      path.join(dir, 'openapi.yaml'),
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    $ref: './sub/a.yaml'\n",
    );
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'sub/a.yaml'), 'get:\n  responses: [\n');
    const err = (await loadSpec(path.join(dir, 'openapi.yaml')).catch(
      (e: unknown) => e,
    )) as SpecError;
    expect(err).toBeInstanceOf(SpecError);
    expect(err.file).toBe(path.relative(ROOT, path.join(dir, 'sub/a.yaml')));
    expect(err.problems[0]?.line).toBeGreaterThan(0);
    await cleanup(dir);
  });
});

describe('JSON text', () => {
  it('is read by JSON.parse unless an object repeats a key, which the YAML parser then reports', () => {
    const repeated = [
      '{"a":1,"a":2}',
      '{"x":{"b":1,"c":[],"b":2}}',
      '{"a\\u0062":1,"ab":2}',
      '{"l":[{"k":1},{"k":1,"k":2}]}',
    ];
    for (const text of repeated)
      expect(() => parseSpecText('x.json', text), text).toThrow(/Map keys must be unique/);
    const unique = [
      '{"a\\"":1,"a\\\\":2, "k" : "v:\\\\", "q":"\\":"}',
      '{"__proto__":1,"x":{"__proto__":{"y":[1,{"y":2}]}}}',
      '{"s":"x\\\\","t":":","u":{}}',
    ];
    for (const text of unique) expect(parseSpecText('x.json', text).jsonText, text).toBe(text);
  });
});
