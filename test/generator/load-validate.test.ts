/**
 * The OpenAPI schema refused a whole description for one bad keyword inside a schema (corpus
 * api.video: `pattern: 0`; opensuse.org/obs: `xml: { example }`). The loader drops such a keyword
 * with a `schema-bad-keyword` finding at its place and validates again; what it cannot repair is
 * refused as before, naming the place.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadSpec, SpecError } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { FIXTURES } from './helpers.ts';

it('drops a keyword of the wrong type and an unknown xml property, with findings', async () => {
  const spec = await loadSpec(path.join(FIXTURES, 'generality/bad-schema-keywords.yaml'));
  const found = normalise(spec)
    .findings.filter((f) => f.code === 'schema-bad-keyword')
    .map((f) => f.pointer);
  expect(found).toEqual(
    expect.arrayContaining([
      '/components/schemas/Pick/properties/timecode/pattern',
      '/paths/~1videos/post/responses/200/content/application~1xml/schema/properties/ns/xml/example',
    ]),
  );
  const timecode = (
    spec.document as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }
  ).components.schemas['Pick']!.properties['timecode'];
  expect(timecode).toEqual({ type: 'string' });
});

it('still refuses what it cannot repair', async () => {
  const { mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(path.join(tmpdir(), 'load-validate-'));
  const broken = path.join(dir, 'broken.yaml');
  await writeFile(
    broken,
    "openapi: 3.0.3\ninfo: { title: t, version: '1' }\npaths:\n  /a:\n    get:\n      responses: { '200': { description: 5 } }\n",
  );
  await expect(loadSpec(broken)).rejects.toBeInstanceOf(SpecError);
});

it.each(['3.0.0', '3.1.0'])(
  'drops a property the root, info or an operation does not have, with findings (%s)',
  async (version) => {
    const { mkdtemp, readFile, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const text = await readFile(path.join(FIXTURES, 'generality/unknown-properties.yaml'), 'utf8');
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'unknown-')), 'spec.yaml');
    await writeFile(file, text.replace('openapi: 3.0.0', `openapi: ${version}`));
    const spec = await loadSpec(file);
    const found = normalise(spec).findings.filter((f) => f.code === 'spec-unknown-property');
    expect(found.map((f) => f.pointer).sort()).toEqual([
      '/info/origin',
      '/paths/~1builds/get/flatPath',
      '/source',
    ]);
    expect(found.find((f) => f.pointer === '/source')?.message).toMatch(/root object.*"source"/);
    expect(spec.document).not.toHaveProperty('source');
  },
);
