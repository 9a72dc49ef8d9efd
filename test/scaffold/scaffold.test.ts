/**
 * `dataapi scaffold operation` on a copy of the service description (never the real one): the
 * operation lands in the spec and the IR with its preview, the rest of the file stays byte for
 * byte, every refusal changes nothing, and the handler file is created once.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { allParameters } from '../../model/queries.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { freePath } from './free-path.ts';
import { removeWork, workDir } from '../work.ts';
import {
  parseField,
  parseRateLimit,
  scaffold,
  ScaffoldError,
  type ScaffoldRequest,
} from '../../generator/scaffold/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = workDir('scaffold');
const spec = path.join(work, 'openapi.yaml');
const handlers = path.join(work, 'handlers');
let original = '';
// Its scratch folder goes with it (KEEP_WORK=1 keeps it for a look).
afterAll(() => removeWork(work));
// Not yet in the description, whatever the user scaffolded into it (free-path.ts).
const F = freePath(readFileSync(path.join(root, 'spec/openapi.yaml'), 'utf8'));

const request = (over: Partial<ScaffoldRequest> = {}): ScaffoldRequest => ({
  method: 'get',
  path: F.path,
  category: 'Weather, air quality',
  envelope: 'capitalised',
  params: [parseField('city:string:required', '--param'), parseField('days:integer', '--param')],
  bodyFields: [],
  preview: true,
  writes: false,
  ...over,
});
const run = (over: Partial<ScaffoldRequest> = {}, dryRun = false) =>
  scaffold(request(over), {
    spec,
    handlersDir: handlers,
    out: path.join(work, 'out'),
    generate: false,
    dryRun,
  });

/** B is A minus the inserted chunks: the rest of the file is untouched, byte for byte. */
function removeInsertions(after: string, insertions: { offset: number; text: string }[]): string {
  let text = after;
  let shift = 0;
  const spans = insertions.map((i) => {
    const span = { start: i.offset + shift, text: i.text };
    shift += i.text.length;
    return span;
  });
  for (const s of spans.reverse()) {
    expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
    text = text.slice(0, s.start) + text.slice(s.start + s.text.length);
  }
  return text;
}

beforeEach(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  copyFileSync(path.join(root, 'spec/openapi.yaml'), spec);
  original = readFileSync(spec, 'utf8');
});

describe('dataapi scaffold operation', () => {
  it('adds the operation and its /demo variant, leaving the rest of the file byte for byte', async () => {
    const result = await run();
    const after = readFileSync(spec, 'utf8');
    expect(after).not.toBe(original);
    // One contiguous insertion: common prefix + common suffix rebuild the original exactly.
    let p = 0;
    while (after[p] === original[p]) p++;
    const q = original.length - p;
    expect(after.slice(after.length - q)).toBe(original.slice(p));
    const chunk = after.slice(p, after.length - q);
    expect(chunk).toContain(`${F.path}:`);
    expect(chunk).not.toMatch(/^components:/m);
    expect(removeInsertions(after, result.insertions)).toBe(original);

    // Through the Document API: after minus the new paths is the document before.
    const doc = parseDocument(after);
    expect(doc.errors).toEqual([]);
    doc.deleteIn(['paths', F.path]);
    doc.deleteIn(['paths', `${F.path}/demo`]);
    expect(doc.toJS()).toEqual(parseDocument(original).toJS());

    const model = normalise(await loadSpec(spec));
    const op = model.operations.find((o) => o.id === F.id)!;
    expect(op).toMatchObject({
      method: 'get',
      path: F.path,
      category: 'Weather, air quality',
      businessCodes: 'base',
      envelope: { spelling: 'capitalised', source: 'extension' },
      preview: {
        path: `${F.path}/demo`,
        explicit: true,
        operationId: `${F.id}Demo`,
      },
      rateLimit: { limit: 5, per: 'second', source: 'default' },
    });
    expect(allParameters(op.parameters).map((x) => `${x.in}:${x.name}:${x.required}`)).toEqual([
      'query:city:true',
      'query:days:false',
    ]);
    expect(op.responses.map((r) => r.status)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '405',
      '415',
      '429',
      '500',
      '502',
    ]);
    const lint = await lintSpec(spec);
    expect(lint.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(readFileSync(path.join(handlers, `${F.stem}.ts`), 'utf8')).toContain(
      `export const ${F.id}: Handlers['${F.id}'] = async (input) =>`,
    );
  });

  it('adds a method to existing path items, with path parameters, a body, codes and a rate limit', async () => {
    const result = await run({
      method: 'post',
      path: '/ai/knowledge-bases/{knowledge_base_id}/documents',
      id: 'listKnowledgeBaseDocuments',
      params: [],
      bodyFields: [parseField('page:integer:required', '--body-field')],
      codes: 'B',
      rateLimit: parseRateLimit('100/minute'),
    }).catch((e: unknown) => e);
    // POST exists there already: refused.
    expect(result).toBeInstanceOf(ScaffoldError);
    expect(readFileSync(spec, 'utf8')).toBe(original);

    const added = await run({
      method: 'put',
      path: '/ai/knowledge-bases/{knowledge_base_id}/documents',
      id: 'replaceKnowledgeBaseDocuments',
      params: [],
      bodyFields: [
        parseField('page:integer:required', '--body-field'),
        parseField('note:string', '--body-field'),
      ],
      codes: 'B',
      rateLimit: parseRateLimit('100/minute'),
    });
    expect(added.insertions).toHaveLength(2);
    expect(removeInsertions(readFileSync(spec, 'utf8'), added.insertions)).toBe(original);
    const model = normalise(await loadSpec(spec));
    const op = model.operations.find((o) => o.id === 'replaceKnowledgeBaseDocuments')!;
    expect(op).toMatchObject({
      businessCodes: 'B',
      rateLimit: { limit: 100, per: 'minute', source: 'operation' },
      body: { kind: 'json', required: true },
      preview: { explicit: true },
      writes: false,
    });
    expect(allParameters(op.parameters).map((x) => `${x.in}:${x.name}`)).toEqual([
      'path:knowledge_base_id',
    ]);
    // Group B operations answer errors with the admission error responses, like their peers.
    const raw = (await loadSpec(spec)).document as any;
    expect(
      raw.paths['/ai/knowledge-bases/{knowledge_base_id}/documents'].put.responses['400'].$ref,
    ).toBe('#/components/responses/AdmissionBadRequest');
    const lint = await lintSpec(spec);
    expect(lint.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('refuses clashes and bad input with a clear message and changes nothing', async () => {
    const refusals: [Partial<ScaffoldRequest>, RegExp][] = [
      [{ path: '/Weather/AirQuality' }, /GET \/Weather\/AirQuality already exists/],
      [{ path: `/weather//${F.segment}` }, /invalid path template.*empty segment/],
      [{ path: `weather/${F.segment}` }, /must start with \//],
      [{ path: '/weather/{bad-name}' }, /neither literal text nor one whole \{parameter\}/],
      [{ path: `${F.path}/demo` }, /preview variant/],
      [
        { path: '/v1/document-extractions/tasks/{id}' },
        /same route as the existing path \/v1\/document-extractions\/tasks\/\{task_id\}/,
      ],
      [
        { category: 'weather, air quality' },
        /unknown category.*did you mean "Weather, air quality"/,
      ],
      [
        { category: 'Weather' },
        /unknown category "Weather" \(did you mean "Weather, air quality"\?\)/,
      ],
      [{ category: 'Wether, air qualty' }, /did you mean "Weather, air quality"/],
      [{ category: 'Astrology' }, /unknown category "Astrology"\. A category/],
      [{ codes: 'Z' }, /unknown business code group "Z".*A, B, C, base/],
      [{ envelope: 'none', codes: 'A' }, /--codes needs an envelope/],
      [{ id: 'getAirQuality' }, /clashes with the existing operationId getAirQuality/],
      [{ id: 'getAirquality' }, /clashes with the existing operationId getAirQuality/],
      [{ id: 'get-forecast' }, /not usable as is/],
      [
        { bodyFields: [{ name: 'a', type: 'string', required: true }] },
        /GET operation takes no request body/,
      ],
    ];
    for (const [over, message] of refusals) {
      const err = await run(over).catch((e: unknown) => e);
      expect(err, JSON.stringify(over)).toBeInstanceOf(ScaffoldError);
      expect((err as Error).message, JSON.stringify(over)).toMatch(message);
      expect(readFileSync(spec, 'utf8')).toBe(original);
      expect(existsSync(handlers)).toBe(false);
    }
    expect(() => parseField('city', '--param')).toThrow(
      /bad --param "city".*name:type\[:required\]/,
    );
    expect(() => parseField('city:text', '--param')).toThrow(/type "text"/);
    expect(() => parseField('city:string:yes', '--param')).toThrow(/"required" or "optional"/);
    expect(() => parseRateLimit('fast')).toThrow(/bad --rate-limit/);
    expect(parseRateLimit('100/min')).toEqual({ limit: 100, per: 'minute' });
  });

  it('shows what it would add with --dry-run and changes nothing', async () => {
    const result = await run({}, true);
    expect(result.insertions[0]!.text).toContain(`operationId: ${F.id}Demo`);
    expect(readFileSync(spec, 'utf8')).toBe(original);
    expect(existsSync(handlers)).toBe(false);
  });

  it('never overwrites an existing handler file', async () => {
    mkdirSync(handlers, { recursive: true });
    const mine = path.join(handlers, `${F.stem}.ts`);
    writeFileSync(mine, '// my implementation\n');
    const result = await run();
    expect(result.handler).toEqual({ path: mine, created: false });
    expect(readFileSync(mine, 'utf8')).toBe('// my implementation\n');
  });
});
