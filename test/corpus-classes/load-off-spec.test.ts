/**
 * Class 1 of issue 48: descriptions mainstream tools (swagger-parser's dereference) read and the
 * loader refused. Each is now read the way dereference reads it, with a warning that names the
 * file and line the author wrote: (a) a `$ref` where OpenAPI allows none (a response's whole
 * `content` map from another file), (b) OpenAPI 3.1 schema constructs in a 3.0 description, (c)
 * the warnings and errors of a split description, at the file and line written, never at
 * `#/components` (where the loader hoisted a schema the author wrote elsewhere).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../../generator/load.ts';
import { reportDir, runCli } from '../contract/harness.ts';
import { fixture, lineOf, linesOf, modelOf, send, serve, type Served } from './helpers.ts';

const where = (model: Awaited<ReturnType<typeof modelOf>>, code: string) =>
  model.findings
    .filter((f) => f.code === code)
    .map((f) => `${f.file}:${f.line ?? '?'}`)
    .sort();

describe('a $ref where OpenAPI allows none (class 1a)', () => {
  const ROOT_FILE = fixture('content-ref/openapi.yaml');
  let served: Served;
  beforeAll(async () => {
    served = await serve('content-ref/openapi.yaml');
  });
  afterAll(() => served?.close());

  it('is read as dereference reads it, with a warning at each $ref written', async () => {
    await SwaggerParser.dereference(ROOT_FILE); // the mainstream reading: no refusal
    const lines = linesOf(ROOT_FILE, "$ref: './content/thing.yaml'");
    expect(lines).toHaveLength(3);
    expect(where(served.model, 'spec-ref-misplaced')).toEqual(
      lines.map((l) => `${ROOT_FILE}:${l}`).sort(),
    );
  });

  it('serves the content the $ref names', async () => {
    const got = await send(`${served.url}/things/t1`, 'GET');
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual({ id: 't1', name: 'a thing' });
    const put = await send(`${served.url}/things/t1`, 'PUT', { id: 't1', name: 'renamed' });
    expect(put.status, put.text).toBe(200);
    const bad = await send(`${served.url}/things/t1`, 'PUT', { id: 't1' });
    expect(bad.status, bad.text).toBe(400);
  });
});

describe('OpenAPI 3.1 schema constructs in a 3.0 description (class 1b)', () => {
  const FILE = fixture('openapi31-in-30.yaml');
  let served: Served;
  beforeAll(async () => {
    served = await serve('openapi31-in-30.yaml');
  });
  afterAll(() => served?.close());

  it('loads, with a warning at each construct', () => {
    const at = (text: string) => `${FILE}:${lineOf(FILE, text)}`;
    expect(where(served.model, 'schema-openapi31-in-30')).toEqual(
      [
        at("- { type: 'null' }"),
        at("type: [string, 'null']"),
        at("examples: ['home']"),
        at('const: link'),
        at('exclusiveMinimum: 0'),
      ].sort(),
    );
  });

  it('is read as OpenAPI 3.1 reads it', async () => {
    const link = { target: null, label: null, kind: 'link', weight: 0.5 };
    const ok = await send(`${served.url}/links`, 'POST', link);
    expect(ok.status, ok.text).toBe(201);
    for (const wrong of [{ kind: 'other' }, { weight: 0 }, { label: 3 }]) {
      const got = await send(`${served.url}/links`, 'POST', { ...link, ...wrong });
      expect(got.status, `${JSON.stringify(wrong)}: ${got.text}`).toBe(400);
    }
  });
});

describe('a split description (class 1c)', () => {
  const THING = fixture('split-located/schemas/thing.yaml');

  it('locates warnings in the file and at the line written', async () => {
    const model = await modelOf('split-located/openapi.yaml');
    expect(where(model, 'schema-openapi31-in-30')).toEqual([
      `${THING}:${lineOf(THING, "type: [string, 'null']")}`,
    ]);
    expect(where(model, 'schema-bad-keyword')).toEqual([
      `${THING}:${lineOf(THING, "maximum: 'ten'")}`,
    ]);
  });

  it('locates an error in the file and at the line written', async () => {
    const BROKEN = fixture('split-located/schemas/broken.yaml');
    const err = await loadSpec(fixture('split-located/broken.yaml')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SpecError);
    const problems = (err as SpecError).problems;
    expect(problems.map((p) => `${p.file}:${p.line}`)).toContain(
      `${BROKEN}:${lineOf(BROKEN, 'discriminator: 12')}`,
    );
    expect(
      problems.filter((p) => p.file === undefined),
      (err as Error).message,
    ).toEqual([]);
  });
});

describe("a split description's warnings in a contract run (class 1c)", () => {
  it('name the file and line written, in the results and on the console', async () => {
    const THING = fixture('split-located/schemas/thing.yaml');
    const run = await runCli(
      'contract',
      ['--spec', fixture('split-located/openapi.yaml'), '--report-dir', reportDir('split')],
      'corpus-split',
    );
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(run.code, tail).toBe(0);
    const warning = run.result?.warnings.find((w) => w.code === 'schema-openapi31-in-30');
    const line = lineOf(THING, "type: [string, 'null']");
    expect(warning, tail).toMatchObject({ file: THING, line });
    expect(run.stdout).toContain(`[schema-openapi31-in-30] (${THING}:${line})`);
  }, 120_000);
});
