/**
 * The proxy's upstream timeouts share one timer (deadlines.ts): each exchange not answered in
 * time is told so, once, no earlier than its time; an answered one never is, however many
 * answered ones wait in front of or behind it.
 */
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../../contract-tests/proxy/deadlines.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('upstream deadlines', () => {
  it('tell each unanswered exchange once, in order, no earlier than its time', async () => {
    const deadlines = new Deadlines(60);
    const told: [string, number][] = [];
    const t0 = performance.now();
    const add = (name: string) => deadlines.add(() => told.push([name, performance.now() - t0]));
    add('a');
    const b = add('b');
    await sleep(20);
    add('c');
    Deadlines.clear(b);
    await sleep(120);
    expect(told.map(([n]) => n)).toEqual(['a', 'c']);
    expect(told[0]![1]).toBeGreaterThanOrEqual(59);
    expect(told[1]![1]).toBeGreaterThanOrEqual(79);
    // Emptied, it starts again for the next one.
    add('d');
    await sleep(100);
    expect(told.map(([n]) => n)).toEqual(['a', 'c', 'd']);
  });

  it('never tells an answered exchange, with thousands answered around an unanswered one', async () => {
    const deadlines = new Deadlines(40);
    const told: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const d = deadlines.add(() => told.push(i));
      // One in every thousand is never answered; the rest are, at once or a little later.
      if (i % 1000 !== 500) {
        if (i % 2) Deadlines.clear(d);
        else setTimeout(() => Deadlines.clear(d), 5);
      }
    }
    await sleep(150);
    expect(told).toEqual([500, 1500, 2500]);
  });
});
