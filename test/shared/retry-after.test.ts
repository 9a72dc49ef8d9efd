/**
 * One Retry-After reading for the client and the contract runner (RFC 9110 10.2.3):
 * delay-seconds (`1*DIGIT`) or an HTTP-date in its three forms; anything else is not a
 * Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../runtime/shared/retry-after.ts';
import { parseRetryAfter as clientParse } from 'dataapi/runtime/client';
import { retryAfterMs } from '../../contract-tests/http.ts';

const now = Date.parse('2025-03-18T10:00:00Z');

describe('Retry-After', () => {
  it('reads delay-seconds: digits only', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('007', now)).toBe(7000);
    expect(parseRetryAfter('3600', now)).toBe(3_600_000);
  });

  it('reads an HTTP-date in each of its three forms, as a delay from now', () => {
    expect(parseRetryAfter('Tue, 18 Mar 2025 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tuesday, 18-Mar-25 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Tue Mar 18 10:00:30 2025', now)).toBe(30_000);
    expect(parseRetryAfter('Sat Mar  1 10:00:00 2025', now)).toBe(0);
    // A date already past asks for no wait.
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(0);
  });

  it.each([
    ['empty', ''],
    ['hex', '0x10'],
    ['exponent', '1e1'],
    ['negative', '-1'],
    ['leading space', ' 5'],
    ['trailing space', '5 '],
    ['fraction', '1.5'],
    ['plus sign', '+5'],
    ['a word', 'soon'],
    ['Infinity', 'Infinity'],
    ['a date Date.parse would take', '2025-03-18T10:00:05Z'],
    ['a date without its zone', 'Tue, 18 Mar 2025 10:00:05'],
    ['a day that does not exist', 'Mon, 31 Feb 2025 10:00:05 GMT'],
    ['an hour that does not exist', 'Tue, 18 Mar 2025 25:00:05 GMT'],
  ])('ignores %s (%j)', (_label, value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('gives undefined when there is no header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('is the same function in the client and the runner', () => {
    expect(clientParse).toBe(parseRetryAfter);
    // The runner falls back to its own backoff (1 s, doubling) where the client gets undefined.
    for (const bad of ['', '0x10', '1e1', '-1', ' 5'])
      expect([bad, retryAfterMs(bad, 1, 60_000)]).toEqual([bad, 2000]);
    expect(retryAfterMs('2', 0, 60_000)).toBe(2000);
    expect(retryAfterMs('0', 3, 60_000)).toBe(0);
    expect(retryAfterMs('120', 0, 30_000)).toBe(30_000);
  });
});
