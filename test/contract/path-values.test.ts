/**
 * What a path value becomes in its URL (contract-tests/path-values.ts): no segment, other values
 * of its own segment, or another template's URL (corpus callfire.com, hhs.gov, brex.io).
 */
import { describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import {
  emptySegment,
  holdsSegmentText,
  segmentTrouble,
  takenElsewhere,
} from '../../contract-tests/path-values.ts';

const model = {
  operations: [
    '/media/{id}',
    '/media/{id}.{extension}',
    '/users/{userId}',
    '/users/me',
    '/reports/{day}',
  ].map((path) => ({ path })),
} as unknown as ServiceModel;

describe('path values', () => {
  it('another template takes a value holding its separator, or its literal segment', () => {
    expect(takenElsewhere(model, '/media/{id}', 'id', 1.5)).toBe(true);
    expect(takenElsewhere(model, '/media/{id}', 'id', 'abc')).toBe(false);
    expect(takenElsewhere(model, '/users/{userId}', 'userId', 'me')).toBe(true);
    expect(takenElsewhere(model, '/users/{userId}', 'userId', 'you')).toBe(false);
    // No template shaped like `/reports/{day}` writes a `.`: 1.5 is that operation's own URL.
    expect(takenElsewhere(model, '/reports/{day}', 'day', 1.5)).toBe(false);
    // The template itself is not "elsewhere".
    expect(takenElsewhere(model, '/media/{id}.{extension}', 'id', 1.5)).toBe(false);
  });

  it('a value holding its own segment text, or writing no segment', () => {
    expect(holdsSegmentText('/media/{id}.{extension}', 'id', 1.5)).toBe(true);
    expect(holdsSegmentText('/media/{id}.{extension}', 'id', 'abc')).toBe(false);
    expect(holdsSegmentText('/media/{id}', 'id', 1.5)).toBe(false);
    for (const v of ['', [], [''], null]) expect(emptySegment(v), JSON.stringify(v)).toBe(true);
    expect(emptySegment(['a'])).toBe(false);
    for (const v of ['', '.', '..', ['']])
      expect(segmentTrouble(v), JSON.stringify(v)).toBeDefined();
    expect(segmentTrouble('a.b')).toBeUndefined();
  });
});
