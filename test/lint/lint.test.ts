/** `dataapi lint`: each catalogue rule fires where it should, with pointer, line and rule id. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { lintSpec, RULES } from '../../generator/lint/index.ts';
import { SpecError } from '../../generator/load.ts';
import { removeWork } from '../work.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = path.join(root, 'test/fixtures/lint/catalogue-bad.yaml');
const work = mkdtempSync(path.join(tmpdir(), 'dataapi-lint-'));
// Its scratch folder goes with it (KEEP_WORK=1 keeps it for a look).
afterAll(() => removeWork(work));

/** Writes a variant of the fixture changed through the yaml Document API. */
function variant(name: string, edit: (doc: ReturnType<typeof parseDocument>) => void): string {
  const doc = parseDocument(readFileSync(fixture, 'utf8'));
  edit(doc);
  const file = path.join(work, `${name}.yaml`);
  writeFileSync(file, doc.toString());
  return file;
}

const brief = (r: Awaited<ReturnType<typeof lintSpec>>) =>
  r.findings.map((f) => `${f.severity} ${f.code} ${f.pointer}`);

describe('dataapi lint', () => {
  it('finds no error in the service description', async () => {
    const report = await lintSpec(path.join(root, 'spec/openapi.yaml'));
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.operations).toBeGreaterThan(20);
  });

  it("keeps the service's rules to descriptions in its conventions; others get the generic ones", async () => {
    // Museum (Redocly's example) has no x-dataapi- extension and no envelope: no category, rate
    // limit, error table, preview or example-missing finding, but its examples are still judged.
    const museum = await lintSpec(path.join(root, 'test/fixtures/third-party/museum.yaml'));
    const serviceRules = [
      'operation-category',
      'operation-envelope',
      'business-code-group',
      'rate-limit',
      'error-responses',
      'preview-variant',
      'preview-consistent',
      'preview-declared',
      'example-missing',
    ];
    expect(museum.findings.filter((f) => serviceRules.includes(f.code))).toEqual([]);
    // The same description with one operation invalid in a generic way: still reported.
    const broken = path.join(work, 'museum-bad-example.yaml');
    const doc = parseDocument(
      readFileSync(path.join(root, 'test/fixtures/third-party/museum.yaml'), 'utf8'),
    );
    doc.setIn(['paths', '/museum-hours', 'get', 'parameters', 0], {
      name: 'startDate',
      in: 'query',
      schema: { type: 'integer' },
      example: 'not a number',
    });
    writeFileSync(broken, doc.toString());
    const generic = await lintSpec(broken);
    expect(generic.findings.map((f) => f.code)).toContain('example-invalid');
    // Marked as the service's (one x-dataapi- extension at its root): the service's rules apply.
    doc.set('x-dataapi-rate-limit', { limit: 10, per: 'second' });
    writeFileSync(broken, doc.toString());
    const marked = await lintSpec(broken);
    expect(marked.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['operation-envelope', 'error-responses', 'preview-declared']),
    );
  });

  it('reports each broken rule with its pointer, line and rule id', async () => {
    const report = await lintSpec(fixture);
    expect(brief(report).sort()).toEqual(
      [
        'error operation-category /paths/~1bad/post/tags',
        'error operation-envelope /paths/~1bad/post/x-dataapi-envelope',
        'error business-code-group /paths/~1bad/post/x-dataapi-business-codes',
        'error rate-limit /paths/~1bad/post/x-dataapi-rate-limit',
        'error example-invalid /paths/~1bad/post/parameters/0/example',
        'error example-missing /paths/~1bad/post/requestBody/content/application~1json',
        'error error-responses /paths/~1bad/post/responses',
        'error example-invalid /paths/~1bad/post/responses/200/content/application~1json/examples/default/value',
        'error preview-consistent /paths/~1bad~1demo/post/security',
        'error error-responses /paths/~1bad~1demo/post/responses',
        'warning preview-consistent /paths/~1bad~1demo/post/responses',
        'error preview-consistent /paths/~1bad~1demo/post/x-dataapi-envelope',
        'warning operation-id-safe /paths/~1plain/get/operationId',
        'warning preview-declared /paths/~1plain/get/x-dataapi-preview',
        'error rate-limit /paths/~1plain/get/x-dataapi-rate-limit',
        'error operation-category /paths/~1plain/get/tags/0',
        'warning error-responses /paths/~1plain/get/responses',
        'warning business-code-group /paths/~1plain/get/x-dataapi-business-codes',
      ].sort(),
    );
    // Every finding is located in the file, and lines point at the right spot.
    const text = readFileSync(fixture, 'utf8').split('\n');
    for (const f of report.findings) {
      expect(f.line, f.pointer).toBeTypeOf('number');
      expect(Object.keys(RULES)).toContain(f.code);
    }
    const example = report.findings.find(
      (f) => f.code === 'example-invalid' && f.pointer.includes('parameters'),
    )!;
    expect(text[example.line! - 1]).toContain('example: 21');
    expect(example.message).toContain('<= 20');
    expect(report.errors).toBe(13);
    expect(report.warnings).toBe(5);
  });

  it('suggests the root tag an unknown category is closest to', async () => {
    const file = variant('category', (doc) =>
      doc.setIn(['paths', '/plain', 'get', 'tags'], ['Weather, air qualty']),
    );
    const finding = (await lintSpec(file)).findings.find(
      (f) => f.pointer === '/paths/~1plain/get/tags/0',
    )!;
    expect(finding.message).toBe(
      'category "Weather, air qualty" is not one of the root tags (did you mean "Weather, air quality"?)',
    );
    const far = (await lintSpec(fixture)).findings.find((f) => f.pointer.endsWith('tags/0'))!;
    expect(far.message).toBe('category "Unknown category" is not one of the root tags');
  });

  it('reports a shared operationId even though the validator rejects the file', async () => {
    const file = variant('duplicate', (doc) =>
      doc.setIn(['paths', '/plain', 'get', 'operationId'], 'getGood'),
    );
    const report = await lintSpec(file);
    const dup = report.findings.filter((f) => f.code === 'operation-id-unique');
    expect(dup.map((f) => `${f.severity} ${f.pointer}`)).toEqual([
      'error /paths/~1plain/get/operationId',
    ]);
    expect(dup[0]!.message).toContain('GET /good');
  });

  it('reports a malformed extension as a finding', async () => {
    const file = variant('extension', (doc) =>
      doc.setIn(['paths', '/good', 'get', 'x-dataapi-business-codes'], 'Z'),
    );
    const report = await lintSpec(file);
    expect(brief(report)).toContain(
      'error extension-invalid /paths/~1good/get/x-dataapi-business-codes',
    );
    // It hides nothing else: the operations are counted and the other rules still report.
    expect(report.operations).toBe((await lintSpec(fixture)).operations);
    expect(report.operations).toBeGreaterThan(0);
    expect(brief(report)).toContain('error rate-limit /paths/~1plain/get/x-dataapi-rate-limit');
    expect(brief(report)).toContain('error operation-category /paths/~1bad/post/tags');
  });

  it('warns about an implied preview variant and flags an unpaired /demo path', async () => {
    const implied = await lintSpec(
      variant('implied', (doc) => doc.deleteIn(['paths', '/good/demo'])),
    );
    expect(brief(implied)).toContain('warning preview-variant /paths/~1good/get/x-dataapi-preview');
    const unpaired = await lintSpec(
      variant('unpaired', (doc) => {
        doc.deleteIn(['paths', '/good/demo', 'get', 'x-dataapi-preview-of']);
        doc.setIn(['paths', '/good', 'get', 'x-dataapi-preview'], false);
      }),
    );
    expect(brief(unpaired)).toContain('error preview-variant /paths/~1good~1demo/get');
  });

  it('throws SpecError for input that is not a valid description', async () => {
    await expect(lintSpec(path.join(work, 'missing.yaml'))).rejects.toBeInstanceOf(SpecError);
    const file = path.join(work, 'not-openapi.yaml');
    writeFileSync(file, 'openapi: 3.1.0\ninfo: {}\npaths: []\n');
    await expect(lintSpec(file)).rejects.toBeInstanceOf(SpecError);
  });

  it('exits 1 on errors, 2 on bad input, and prints JSON for tools', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'bin/dataapi.js'), 'lint', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    const bad = run('--spec', fixture, '--format', 'json');
    expect(bad.status).toBe(1);
    const json = JSON.parse(bad.stdout) as {
      errors: number;
      findings: { rule: string; line: number }[];
    };
    expect(json.errors).toBe(13);
    expect(json.findings[0]).toMatchObject({ rule: expect.any(String), line: expect.any(Number) });
    const text = run('--spec', fixture);
    expect(text.stdout).toMatch(/catalogue-bad\.yaml:\d+:\d+ +error +rate-limit +postBad: /);
    expect(run('--spec', path.join(work, 'missing.yaml')).status).toBe(2);
    expect(run('--format', 'xml').status).toBe(2);
  });
});
