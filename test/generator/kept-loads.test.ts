/**
 * What a load keeps for the next process (generator/load-yaml-kept.ts, load-schema.ts): a large
 * YAML description's value, read back the same, with its problems still reported at their lines;
 * values JSON cannot hold exactly are not kept; the OpenAPI schema's validator evaluated from its
 * kept standalone code reports what a fresh compile reports.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../../generator/load.ts';
import { evaluateKept, validateSchema } from '../../generator/load-schema.ts';
import {
  KEEP_FROM_CHARS,
  keepYamlValue,
  keptYamlFile,
  keptYamlValue,
} from '../../generator/load-yaml-kept.ts';
import { cachedFile } from '../../generator/speed/toolkit-cache.ts';

const KEPT_MODULE = path.resolve('generator/load-yaml-kept.ts');

/** A YAML description over the size that is kept, unique to this run (a new cache key). */
function bigYaml(tail: string): string {
  const stamp = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const paths: string[] = [];
  for (let i = 0; paths.join('').length < KEEP_FROM_CHARS; i++)
    paths.push(
      `  /items${i}:\n    get:\n      operationId: getItem${i}\n      responses:\n        '200':\n          description: item ${i} of ${stamp}\n`,
    );
  return `openapi: 3.1.0\ninfo:\n  title: kept ${stamp}\n  version: '1'\npaths:\n${paths.join('')}${tail}`;
}

async function written(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dataapi-kept-'));
  const file = path.join(dir, 'big.yaml');
  await writeFile(file, text);
  return file;
}

describe('a large YAML description kept between loads', () => {
  it('is read back as the parser read it, a fresh copy each time', async () => {
    const text = bigYaml('');
    const file = await written(text);
    expect(existsSync(keptYamlFile(text))).toBe(false);
    const first = await loadSpec(file);
    expect(existsSync(keptYamlFile(text))).toBe(true);
    const second = await loadSpec(file);
    expect(second.document).toEqual(first.document);
    expect(second.document).not.toBe(first.document);
    (second.document['info'] as Record<string, unknown>)['title'] = 'changed';
    expect(((await loadSpec(file)).document['info'] as Record<string, unknown>)['title']).toMatch(
      /^kept /,
    );
    // Positions are read from the text when asked for.
    expect(second.locate('/paths/~1items3/get')).toEqual(first.locate('/paths/~1items3/get'));
    const line = second.locate('/paths/~1items3/get')!.line;
    expect(text.split('\n')[line - 1]).toBe('      operationId: getItem3');
  });

  it('still names the line of a problem when the value came from the cache', async () => {
    const text = bigYaml('  /broken:\n    get:\n      responses: 12\n');
    const file = await written(text);
    const messages: string[] = [];
    for (let i = 0; i < 2; i++) {
      const error = await loadSpec(file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpecError);
      messages.push((error as SpecError).message);
    }
    expect(existsSync(keptYamlFile(text))).toBe(true);
    const line = text.split('\n').indexOf('      responses: 12') + 1;
    expect(messages[0]).toContain(`big.yaml:${line}:`);
    expect(messages[1]).toBe(messages[0]);
  });

  it('reads a torn kept file as no kept value (the text is parsed again)', async () => {
    const text = bigYaml('');
    const file = await written(text);
    const first = await loadSpec(file);
    const kept = keptYamlFile(text);
    writeFileSync(kept, readFileSync(kept, 'utf8').slice(0, 100));
    expect(keptYamlValue(text)).toEqual(first.document); // this process remembers it
    const again = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${KEPT_MODULE}').then((m) => process.stdout.write(String(m.keptYamlValue(${JSON.stringify(text)}) === undefined)))`,
      ],
      { encoding: 'utf8' },
    );
    expect(again.stdout, again.stderr).toBe('true');
    expect((await loadSpec(file)).document).toEqual(first.document);
  });

  it('keeps only what JSON holds exactly (no shared anchors, no .inf)', () => {
    const shared = { a: 1 };
    for (const value of [{ x: shared, y: shared }, { n: Infinity }, { n: -0 }]) {
      const text = bigYaml(`# ${JSON.stringify(value)}\n`);
      keepYamlValue(text, value);
      expect(keptYamlValue(text), JSON.stringify(value)).toBeUndefined();
    }
    const text = bigYaml('# plain\n');
    keepYamlValue(text, { a: [1, 'b', null, true] });
    expect(keptYamlValue(text)).toEqual({ a: [1, 'b', null, true] });
  });
});

describe("the OpenAPI schema's validator kept as standalone code", () => {
  it("reports what swagger-parser's own validation (a fresh compile) reports", async () => {
    const bad = {
      openapi: '3.1.0',
      info: { title: 1 },
      paths: { '/a': { get: { responses: 3 } } },
    };
    const reference = (await SwaggerParser.validate(structuredClone(bad) as never).catch(
      (e: unknown) => e,
    )) as { details?: unknown[] };
    expect(reference.details?.length).toBeGreaterThan(0);
    expect(() => validateSchema(bad)).toThrow(/^Swagger schema validation failed/);
    // validateSchema kept the 3.1 schema's validator (or found it kept): evaluated from its file,
    // one of the kept validators rejects the document with the very same errors.
    const dir = path.dirname(cachedFile('openapi-schema', [], '.cjs'));
    const verdicts = readdirSync(dir)
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => {
        const validate = evaluateKept(readFileSync(path.join(dir, f), 'utf8'));
        expect(validate).toBeTypeOf('function');
        return validate!(bad) ? undefined : JSON.stringify(validate!.errors);
      });
    expect(verdicts).toContain(JSON.stringify(reference.details));
  });
});

describe('a torn kept validator', () => {
  it('is no validator: the schema is compiled afresh', () => {
    expect(evaluateKept('module.exports = function validate10(data) { return tru')).toBeUndefined();
    expect(evaluateKept('module.exports = 3;')).toBeUndefined();
  });
});
