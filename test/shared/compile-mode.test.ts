/**
 * compileForFewValidations (model/validate.ts): after it, a thread's validators are compiled
 * without Ajv's optimisation pass, and accept and refuse exactly what optimised ones do. Run in a
 * child process: the setting is the thread's, and this worker runs other files after this one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const CHILD = `
import { compileForFewValidations, createSchemaValidator, describeErrors } from './model/validate.ts';
const model = JSON.parse(process.argv[1]);
const schema = { $ref: 'urn:dataapi:spec#/$defs/Item' };
const samples = [
  { id: 1, tags: ['a'], at: '2026-11-27T10:00:00Z' },
  { id: 'x', tags: [1, 2], at: 'yesterday', extra: true },
  { tags: [] },
  [],
];
const verdicts = (v) => samples.map((s) => {
  const f = v.compile(schema);
  return [f(s), describeErrors(f.errors, s)];
});
const before = createSchemaValidator(model);
const optimised = verdicts(before);
compileForFewValidations();
const after = createSchemaValidator(model);
process.stdout.write(JSON.stringify({
  optimize: [Boolean(before.ajv.opts.code.optimize), Boolean(after.ajv.opts.code.optimize)],
  optimised,
  fast: verdicts(after),
}));
`;

describe('validators compiled for few validations', () => {
  it("skip Ajv's optimisation after compileForFewValidations, and judge the same", () => {
    const model = {
      schemaRoot: {
        $id: 'urn:dataapi:spec',
        $defs: {
          Item: {
            type: 'object',
            required: ['id'],
            additionalProperties: false,
            properties: {
              id: { type: 'integer', minimum: 1 },
              tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
              at: { type: 'string', format: 'date-time' },
            },
          },
        },
      },
    };
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD, JSON.stringify(model)],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout) as {
      optimize: unknown[];
      optimised: [boolean, string[]][];
      fast: [boolean, string[]][];
    };
    expect(out.optimize).toEqual([true, false]);
    expect(out.fast).toEqual(out.optimised);
    expect(out.optimised.map(([ok]) => ok)).toEqual([true, false, false, false]);
    expect(out.optimised[1]![1].length).toBeGreaterThan(3);
  });
});
