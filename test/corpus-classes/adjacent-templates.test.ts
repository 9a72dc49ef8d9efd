/**
 * Two path templates with no text between (Buffer's and healthcare.gov's
 * `/profiles/{id}{mediaTypeExtension}`, the extension an enum of `.json`): find-my-way read
 * `:id:mediaTypeExtension` as one parameter of that name, so every request lacked `id` (valid
 * refused, and a value outside the enum refused for `id`). Microsoft Graph's function segment
 * `(includedUserTypes='{includedUserTypes}')` whose parameter may be an object: {} drawn wrote an
 * empty text, no route (an empty object is now no path value, as "" is). And Notion's header
 * parameter named "", which made fetch throw on every request the suite built: ignored, with a
 * finding.
 */
import { describe, expect, it } from 'vitest';
import { agreementOf, classOf } from '../../bench/corpus/agreement.ts';
import { serveBoth } from './helpers.ts';

const served = serveBoth('adjacent-templates.yaml');

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('two path templates with no text between them', () => {
  it('split where the listed extension ends the segment', async () => {
    expect((await get(`${served.server.url}/profiles/abc.json`)).body['path']).toEqual({
      id: 'abc',
      mediaTypeExtension: '.json',
    });
    expect((await get(`${served.server.url}/profiles/a.b.xml`)).body['path']).toEqual({
      id: 'a.b',
      mediaTypeExtension: '.xml',
    });
    expect((await get(`${served.server.url}/profiles/v1.2.json/updates`)).body['path']).toEqual({
      id: 'v1.2',
      mediaTypeExtension: '.json',
    });
    expect((await get(`${served.mock.url}/profiles/abc.json`)).status).toBe(200);
  });

  it('an extension outside the enum is refused for its enum, not as no route', async () => {
    for (const url of [served.mock.url, served.server.url]) {
      const { status, body } = await get(`${url}/profiles/abc.txt`);
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toMatch(/mediaTypeExtension/);
    }
  });

  it('a header parameter named "" is ignored, with a finding', () => {
    const op = served.mock.model.operations.find((o) => o.id === 'getPage')!;
    expect(op.parameters.header.map((p) => p.name)).toEqual(['Notion-Version']);
    expect(served.mock.model.findings.map((f) => `${f.code} ${f.operation} ${f.pointer}`)).toEqual([
      'header-name-invalid getPage /paths/~1pages~1{id}/get/parameters/2',
    ]);
  });

  it('agreement by construction: no finding, nothing thrown', async () => {
    const a = await agreementOf(served.mock.model, { seed: 48, perOperation: 4 });
    expect(a.findings.map((f) => `${classOf(f)} ${f.name}: ${f.detail}`)).toEqual([]);
  });
});
