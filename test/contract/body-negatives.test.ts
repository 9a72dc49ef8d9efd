/**
 * Negative cases on a JSON body as a whole (a value of another type) and on arrays of objects
 * (a null item): the classes that found Alertmanager's panics and Jupyter's 500s (docs/field.md
 * V6, V8, V9, H16).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { negativeCases } from '../../contract-tests/negatives.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { ROOT } from './harness.ts';

const spec = path.join(ROOT, 'test/fixtures/negatives/whole-body.yaml');

async function casesOf(id: string) {
  const m = normalise(await loadSpec(spec));
  const op = m.operations.find((o) => o.operationId === id)!;
  return { cases: negativeCases(m, op), first: validRequests(m, op)[0]! };
}

describe('negative cases on a whole JSON body', () => {
  it('an array body: an object instead, and a null item where items are objects', async () => {
    const { cases, first } = await casesOf('postAlerts');
    const labels = cases.map((c) => c.label);
    expect(labels).toContain('body={"not":"an array"} (not an array)');
    expect(labels).toContain('body=[null] (an item null, not an object)');
    const nul = cases.find((c) => c.label.startsWith('body=[null]'))!;
    expect(nul.target).toBe('body');
    expect(nul.apply(first).body).toEqual([null]);
  });

  it('an array field of objects gets a null item; strings and nullable items do not', async () => {
    const labels = (await casesOf('postSilence')).cases.map((c) => c.label);
    expect(labels).toContain('body field matchers=[null] (an item null, not an object)');
    // A coercing server reads null as "" for a string: no case; nullable items admit it.
    expect(labels.some((l) => l.startsWith('body field tags=[null]'))).toBe(false);
    expect(labels.some((l) => l.startsWith('body field notes=[null]'))).toBe(false);
    expect(labels).toContain('body="abc" (not an object)');
  });

  it('an object body without properties still gets a wrong type; an untyped one does not', async () => {
    const config = (await casesOf('patchConfig')).cases;
    expect(config.map((c) => c.label)).toEqual(['body="abc" (not an object)']);
    expect(config[0]!.apply((await casesOf('patchConfig')).first).body).toBe('abc');
    // `properties` alone admits any type (JSON Schema): no wrong type exists for it.
    const free = (await casesOf('putFree')).cases.map((c) => c.label);
    expect(free.some((l) => l.startsWith('body='))).toBe(false);
  });
});
