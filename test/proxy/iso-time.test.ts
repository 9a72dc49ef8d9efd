/**
 * The proxy stamps each exchange with its start time (observed.ts's isoTime, the date part
 * formatted once per second): the very text `toISOString` gives, whatever the milliseconds and
 * however calls move between seconds.
 */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../contract-tests/proxy/observed.ts';

describe('isoTime', () => {
  it('is toISOString for every millisecond of a few seconds, in order and out of it', () => {
    const start = Date.UTC(2026, 10, 30, 23, 59, 58);
    const times = Array.from({ length: 4000 }, (_, i) => start + i);
    // Back and forth across seconds, days, months and years (the cached part must change too).
    const mixed = [...times].reverse().concat(times.filter((_, i) => i % 7 === 0));
    mixed.push(0, 9, 10, 99, 100, 999, 1000, Date.UTC(1999, 11, 31, 23, 59, 59, 999));
    mixed.push(Date.UTC(2000, 0, 1), Date.UTC(2024, 1, 29, 12, 0, 0, 5), Date.now());
    for (const ms of [...times, ...mixed]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
