/**
 * No change where there is none: a description against itself (the service's and the four
 * third-party ones), and the same API written in OpenAPI 3.0 and in 3.1.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../generator/diff/index.ts';
import { BASE, FIXTURES, ROOT, scratch } from './helpers.ts';

const dir = scratch('equivalence');
const THIRD_PARTY = path.join(ROOT, 'test/fixtures/third-party');
const BASE_30 = path.join(FIXTURES, 'base-30.yaml');

describe('dataapi diff: no change where there is none', () => {
  it('the service description against itself', async () => {
    const spec = path.join(ROOT, 'spec/openapi.yaml');
    const report = await diffSpecs({ base: spec, head: spec });
    expect(report.changes).toEqual([]);
  });

  it('the same API in OpenAPI 3.0 and 3.1 spellings, both ways', async () => {
    // nullable vs type arrays, boolean vs numeric exclusiveMaximum, example vs examples,
    // allOf-wrapped $ref with a description vs a bare $ref.
    expect((await diffSpecs({ base: BASE, head: BASE_30 })).changes).toEqual([]);
    expect((await diffSpecs({ base: BASE_30, head: BASE })).changes).toEqual([]);
  });

  it('but a real change in the 3.0 spelling is still seen', async () => {
    const file = path.join(dir, 'relaxed-30.yaml');
    writeFileSync(
      file,
      readFileSync(BASE_30, 'utf8').replace('exclusiveMaximum: true', 'exclusiveMaximum: false'),
    );
    const { changes } = await diffSpecs({ base: BASE, head: file });
    expect(changes.map((c) => `${c.code} ${c.operation}`)).toEqual([
      'response-bounds-widened getIpLocation',
    ]);
  });

  it.each(['museum.yaml', 'twilio-verify-v2.json', 'adyen-management-v3.json', 'box.json'])(
    'third-party %s against itself (loaded twice)',
    async (name) => {
      const file = path.join(THIRD_PARTY, name);
      const report = await diffSpecs({ base: file, head: file });
      expect(report.changes).toEqual([]);
      expect(report.summary).toEqual({ breaking: 0, warning: 0, compatible: 0, allowed: 0 });
    },
  );

  it('third-party museum.yaml with one operation removed: exactly that change', async () => {
    const text = readFileSync(path.join(THIRD_PARTY, 'museum.yaml'), 'utf8');
    const { parse, stringify } = await import('yaml');
    const doc = parse(text);
    const [firstPath] = Object.keys(doc.paths);
    const removed = Object.keys(doc.paths[firstPath!]).find((k) => k === 'get' || k === 'post')!;
    const id = doc.paths[firstPath!][removed].operationId;
    delete doc.paths[firstPath!][removed];
    const file = path.join(dir, 'museum-head.yaml');
    writeFileSync(file, stringify(doc));
    const { changes } = await diffSpecs({
      base: path.join(THIRD_PARTY, 'museum.yaml'),
      head: file,
    });
    expect(changes.map((c) => `${c.code} ${c.operation}`)).toEqual([`api-operation-removed ${id}`]);
  });
});
