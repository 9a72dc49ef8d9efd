/**
 * A `%` in a key is just a character: only the URI-fragment form of a pointer (`#/...`, what a
 * `$ref` holds) is percent-encoded. A description with the path `/rates/100%` generates; a `$ref`
 * whose fragment breaks percent-encoding fails with its file, line, pointer and what to do.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentToPointer, PointerError, splitPointer } from '../../model/pointer.ts';
import { cleanup, cli, ROOT, scratch } from './helpers.ts';

const description = (ref: string) => `openapi: 3.1.0
info: { title: Rates, version: '1' }
paths:
  /rates/100%:
    get:
      operationId: getFullRate
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '${ref}' }
  /a%2Fb:
    get:
      operationId: getSlashed
      responses:
        '200': { description: ok }
components:
  schemas:
    Rate:
      type: object
      properties:
        per%: { type: number }
`;

describe('pointers: plain as written, fragments percent-decoded', () => {
  it('reads a % in a plain pointer as a character', () => {
    expect(splitPointer('/paths/~1rates~1100%/get')).toEqual(['paths', '/rates/100%', 'get']);
    expect(splitPointer('/paths/~1a%2Fb')).toEqual(['paths', '/a%2Fb']);
  });

  it('decodes the URI-fragment form', () => {
    expect(splitPointer('#/paths/~1rates~1100%25/get')).toEqual(['paths', '/rates/100%', 'get']);
    expect(splitPointer('#/components/schemas/a%20b')).toEqual(['components', 'schemas', 'a b']);
    expect(fragmentToPointer('#/a%2Fb')).toBe('/a/b');
    expect(splitPointer('#')).toEqual([]);
  });

  it('refuses a fragment whose percent-encoding is broken, naming it', () => {
    expect(() => splitPointer('#/rates/100%')).toThrow(PointerError);
    expect(() => splitPointer('#/rates/100%')).toThrow(/"#\/rates\/100%".*"%25"/);
  });
});

describe('dataapi generate with % in keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await scratch('percent-keys', true);
  });
  afterAll(async () => {
    await cleanup(dir);
  });

  it('generates the path /rates/100%, the path /a%2Fb and the property per%', async () => {
    const spec = path.join(dir, 'good.yaml');
    await writeFile(spec, description('#/components/schemas/Rate'));
    const out = path.join(dir, 'good-out');
    const run = await cli('generate', '--spec', spec, '--out', out);
    expect(run.stderr).not.toMatch(/URI malformed/);
    expect(run.code, run.stderr).toBe(0);
    const types = await readFile(path.join(out, 'types.ts'), 'utf8');
    expect(types).toContain("'/rates/100%': {");
    expect(types).toContain("'/a%2Fb': {");
    expect(types).toMatch(/'per%'\?: number/);
    expect(types).not.toMatch(/dataapi-percent/);
    const model = JSON.parse(await readFile(path.join(out, 'model.json'), 'utf8')) as {
      operations: { id: string; path: string }[];
    };
    expect(model.operations.map((o) => [o.id, o.path]).sort()).toEqual([
      ['getFullRate', '/rates/100%'],
      ['getSlashed', '/a%2Fb'],
    ]);
  });

  it('fails on a $ref whose fragment breaks percent-encoding: file, line, pointer, message', async () => {
    const spec = path.join(dir, 'bad.yaml');
    await writeFile(spec, description('#/components/schemas/Rate%'));
    const run = await cli('generate', '--spec', spec, '--out', path.join(dir, 'bad-out'));
    expect(run.code).toBe(2);
    const shown = path.relative(ROOT, spec);
    expect(run.stderr).toContain(
      `${shown}:12:31 at #/paths/~1rates~1100%/get/responses/200/content/application~1json/schema/$ref`,
    );
    expect(run.stderr).toContain('malformed JSON pointer "#/components/schemas/Rate%"');
    expect(run.stderr).not.toMatch(/URI malformed/);
  });
});
