/**
 * A run's results name the description they were judged by (title, version and a hash of what
 * the judges read), so that `dataapi report merge` can refuse results of different descriptions.
 */
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { descriptionIdentity } from '../../contract-tests/description-identity.ts';
import { TrafficLog } from '../../contract-tests/proxy/log.ts';

describe('descriptionIdentity', () => {
  it('is the title, the version and a hash that a copy of the model keeps', () => {
    const id = descriptionIdentity(model);
    expect(id).toEqual({ title: model.title, version: model.version, hash: expect.any(String) });
    expect(id.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(descriptionIdentity(structuredClone(model))).toEqual(id);
  });

  it('changes with what the judges read, not with where the findings say the file was', () => {
    const id = descriptionIdentity(model);
    const moved = structuredClone(model);
    moved.operations[0]!.path = `${moved.operations[0]!.path}/v2`;
    expect(descriptionIdentity(moved).hash).not.toBe(id.hash);
    const schema = structuredClone(model);
    schema.schemaRoot = { ...schema.schemaRoot, $comment: 'edited' };
    expect(descriptionIdentity(schema).hash).not.toBe(id.hash);
    const found = structuredClone(model);
    found.findings = [
      {
        code: 'converted-from-swagger2',
        severity: 'warning',
        message: 'converted',
        pointer: '',
        file: './spec/openapi.yaml',
      },
    ];
    expect(descriptionIdentity(found)).toEqual(id);
  });

  it("is in the proxy's results", () => {
    expect(new TrafficLog().result(model, 'http://x').description).toEqual(
      descriptionIdentity(model),
    );
  });
});
