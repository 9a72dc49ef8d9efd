/** `dataapi lint` accepts a well-formed x-dataapi-allow-breaking and flags a malformed one. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../generator/lint/index.ts';
import { ROOT, scratch } from './helpers.ts';

const dir = scratch('lint');

function variant(name: string, value: unknown, at: string[]): string {
  const doc = parseDocument(readFileSync(path.join(ROOT, 'spec/openapi.yaml'), 'utf8'));
  doc.setIn(at, value);
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, doc.toString());
  return file;
}

const invalid = async (file: string) =>
  (await lintSpec(file)).findings
    .filter((f) => f.code === 'extension-invalid')
    .map((f) => `${f.pointer} ${f.message}`);

describe('x-dataapi-allow-breaking in dataapi lint', () => {
  it('accepts entries at the root and on an operation', async () => {
    const root = variant(
      'ok-root',
      [{ rule: 'api-operation-removed', operation: 'getNews', reason: 'retired' }],
      ['x-dataapi-allow-breaking'],
    );
    expect(await invalid(root)).toEqual([]);
    const op = variant(
      'ok-op',
      [{ rule: 'rate-limit-lowered', reason: 'the upstream halved its quota' }],
      ['paths', '/Weather/AirQuality', 'get', 'x-dataapi-allow-breaking'],
    );
    const report = await lintSpec(op);
    expect(report.findings.filter((f) => f.code === 'extension-invalid')).toEqual([]);
    expect(report.errors).toBe(0);
  });

  it('flags an unknown rule and a missing reason, with pointer and line', async () => {
    const file = variant(
      'bad',
      [{ rule: 'no-such-rule', reason: 'x' }, { rule: 'api-operation-removed' }],
      ['x-dataapi-allow-breaking'],
    );
    expect(await invalid(file)).toEqual([
      '/x-dataapi-allow-breaking/0/rule rule must be a dataapi diff rule id, not "no-such-rule"',
      '/x-dataapi-allow-breaking/1/reason accepting api-operation-removed needs a reason (a non-empty string)',
    ]);
    const report = await lintSpec(file);
    expect(report.findings.find((f) => f.code === 'extension-invalid')!.line).toBeGreaterThan(1);
  });
});
