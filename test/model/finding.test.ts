import { describe, expect, it } from 'vitest';
import { CATALOGUE, Diagnostics, findingOf, runSeverity } from 'dataapi/model';

describe('Diagnostics: the one sink of a run', () => {
  it('decides severity from the catalogue, not from the producer', () => {
    const sink = new Diagnostics();
    const f = sink.add({ code: 'example-invalid', message: 'an example', pointer: '/a' });
    expect(f?.severity).toBe(CATALOGUE['example-invalid'].severity);
    expect(findingOf({ code: 'schema', message: 'x' }).severity).toBe('failure');
  });

  it("in a run, follows the user's settings and drops a code turned off", () => {
    const sink = new Diagnostics(runSeverity({ schema: 'warning', status: 'off' }));
    expect(sink.add({ code: 'schema', message: 'body' })?.severity).toBe('warning');
    expect(sink.add({ code: 'status', message: 'HTTP 500' })).toBeUndefined();
    expect(sink.add({ code: 'negative', message: 'accepted' })?.severity).toBe('failure');
    expect(sink.add({ code: 'example-invalid', message: 'e' })?.severity).toBe('warning');
    expect(sink.add({ code: 'missing-test-data', message: 'm' })?.severity).toBe('not-tested');
    expect(sink.count('failure')).toBe(1);
    expect(sink.ofSeverity('warning').map((f) => f.code)).toEqual(['schema', 'example-invalid']);
  });

  it('keeps each finding once, a milder case one step down, and a stable order', () => {
    const sink = new Diagnostics();
    const at = {
      code: 'operation-id-unique',
      message: 'twice',
      pointer: '/paths/~1b/get',
    } as const;
    expect(sink.add(at)).toBeDefined();
    expect(sink.add(at)).toBeUndefined();
    expect(sink.add({ ...at, pointer: '/paths/~1a/get' }, { milder: true })?.severity).toBe(
      'warning',
    );
    expect(sink.all).toHaveLength(2);
    expect(sink.sorted().map((f) => f.pointer)).toEqual(['/paths/~1a/get', '/paths/~1b/get']);
    sink.addDecided([
      { ...at, severity: 'error' },
      { ...at, message: 'new', severity: 'error' },
    ]);
    expect(sink.all).toHaveLength(3);
  });
});
