/**
 * Swagger 2.0 input (issue 26, class 12): read through swagger2openapi into the same model, with a
 * finding that says so; lines still name the 2.0 file; generate, lint, contract (against its own
 * mock) and diff between a 2.0 and a 3.0 description work.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSpecs } from '../../generator/diff/index.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { loadSpec, SpecError } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { failedOf, runCli } from '../contract/harness.ts';
import { cli, FIXTURES } from './helpers.ts';

const DIR = path.join(FIXTURES, 'swagger2');
const V2 = path.join(DIR, 'petstore-2.yaml');
const V3 = path.join(DIR, 'openapi-3.yaml');
const V3_CHANGED = path.join(DIR, 'openapi-3-changed.yaml');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'dataapi-swagger2-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The 1-based line of the first line of the file that matches (after the one `after` matches). */
async function lineOf(file: string, re: RegExp, after?: RegExp): Promise<number> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const from = after ? lines.findIndex((l) => after.test(l)) : 0;
  const i = lines.findIndex((l, n) => n >= from && re.test(l));
  expect(i, String(re)).toBeGreaterThanOrEqual(0);
  return i + 1;
}

describe('a Swagger 2.0 description', () => {
  it('loads into the model a 3.0 one gives, with a finding at its swagger line', async () => {
    const spec = await loadSpec(V2);
    const model = normalise(spec);
    const same = normalise(await loadSpec(V3));
    expect(model.operations.map((o) => o.id)).toEqual(same.operations.map((o) => o.id));
    const finding = model.findings.find((f) => f.code === 'converted-from-swagger2');
    expect(finding).toMatchObject({ pointer: '/swagger', line: await lineOf(V2, /^swagger:/) });
    expect(same.findings.some((f) => f.code === 'converted-from-swagger2')).toBe(false);
  });

  it('maps pointers of the converted document back to lines of the 2.0 file', async () => {
    const spec = await loadSpec(V2);
    const at = (pointer: string) => spec.locate(pointer)?.line;
    expect(at('/components/schemas/Pet/properties/name')).toBe(
      await lineOf(V2, /^ {6}name: /, /^ {2}Pet:$/),
    );
    expect(at('/paths/~1pets/post/requestBody/content/application~1json/schema')).toBe(
      await lineOf(V2, /schema: \{ \$ref: '#\/definitions\/NewPet' \}/),
    );
    expect(at('/paths/~1pets/get/responses/200/content/application~1json/schema/items')).toBe(
      await lineOf(V2, /items: \{ \$ref: '#\/definitions\/Pet' \}/),
    );
    expect(at('/paths/~1pets/get/parameters/1/schema')).toBe(await lineOf(V2, /- name: tags/));
    expect(at('/paths/~1pets~1{petId}/parameters/0')).toBe(await lineOf(V2, /- name: petId/));
  });

  it('a schema warning after conversion names the line of the 2.0 file', async () => {
    const file = path.join(tmp, 'bad.yaml');
    const text = (await readFile(V2, 'utf8')).replace(
      '      tag: { type: string }\n  Pet:',
      '      tag: { type: strin }\n  Pet:',
    );
    writeFileSync(file, text);
    // Read as swagger-parser's dereference reads it (no type), with a warning at the 2.0 line.
    const spec = await loadSpec(file);
    const pointer = '/components/schemas/NewPet/properties/tag/type';
    expect(spec.repairs?.map((r) => `${r.code} ${r.pointer}`)).toContain(
      `schema-unknown-keyword ${pointer}`,
    );
    expect(spec.locate(pointer)?.line).toBe(await lineOf(file, /type: strin \}/));
  });

  it('lint says it was converted (a warning at the swagger line)', async () => {
    const report = await lintSpec(V2);
    const f = report.findings.find((x) => x.code === 'swagger2-converted');
    expect(f).toMatchObject({ severity: 'warning', line: await lineOf(V2, /^swagger:/) });
  });

  it('diff between the 2.0 description and its 3.0 equivalent finds only the real change', async () => {
    const same = await diffSpecs({ base: V2, head: V3 });
    expect(same.changes).toEqual([]);
    expect((await diffSpecs({ base: V3, head: V2 })).changes).toEqual([]);
    const changed = await diffSpecs({ base: V2, head: V3_CHANGED });
    expect(changed.changes.map((c) => [c.code, c.operation])).toEqual([
      ['request-parameter-became-required', 'listPets'],
    ]);
    const back = await diffSpecs({ base: V3_CHANGED, head: V2 });
    expect(back.changes.map((c) => [c.code, c.line])).toEqual([
      ['request-parameter-became-optional', await lineOf(V2, /- name: limit/)],
    ]);
  });

  it('generate writes the client, server, mock and tests', async () => {
    const out = path.join(tmp, 'gen');
    const r = await cli('generate', '--spec', V2, '--out', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/3 operations/);
    const client = await readFile(path.join(out, 'model.json'), 'utf8');
    expect(client).toContain('"listPets"');
  });

  it('contract --spec passes against its own mock, the conversion a warning', async () => {
    const run = await runCli(
      'contract',
      ['--spec', V2, '--report-dir', path.join(tmp, 'report')],
      'swagger2',
    );
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(run.code, tail).toBe(0);
    expect(run.result!.summary.passed).toBeGreaterThan(10);
    expect(run.result!.warnings.map((w) => w.code)).toContain('converted-from-swagger2');
  }, 300_000);
});
