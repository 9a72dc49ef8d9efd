/**
 * The service's description: a change to a shared schema reaches every operation that uses it,
 * each reported once (the /demo previews fold into their operations).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../generator/diff/index.ts';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { ROOT, scratch } from './helpers.ts';

const dir = scratch('service');
const SPEC = path.join(ROOT, 'spec/openapi.yaml');

describe('dataapi diff on the service description', () => {
  it('DataStatus.StatusCode retyped: one breaking change per operation whose envelope carries it', async () => {
    const text = readFileSync(SPEC, 'utf8');
    const at = text.indexOf('    DataStatus:\n      type: object');
    const field = '        StatusCode:\n          type: integer';
    const i = text.indexOf(field, at);
    expect(at).toBeGreaterThan(0);
    expect(i).toBeGreaterThan(at);
    const head = path.join(dir, 'status-code.yaml');
    writeFileSync(
      head,
      text.slice(0, i) + field.replace('integer', 'string') + text.slice(i + field.length),
    );

    const { changes } = await diffSpecs({ base: SPEC, head });
    const model = normalise(await loadSpec(SPEC));
    const carrying = model.operations
      .filter(
        (o) =>
          o.envelope?.statusKey === 'DataStatus' ||
          o.envelope?.toleratedKeys.includes('DataStatus'),
      )
      .map((o) => o.operationId)
      .sort();
    expect(carrying.length).toBeGreaterThan(20);
    expect(changes.map((c) => c.operation).sort()).toEqual(carrying);
    for (const c of changes) {
      expect(c.code).toBe('response-type-changed');
      expect(c.pointer).toBe('/components/schemas/DataStatus/properties/StatusCode/type');
      expect(readFileSync(head, 'utf8').split('\n')[c.line! - 1]).toContain('type: string');
    }
  });
});
