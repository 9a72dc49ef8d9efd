/**
 * "Did you mean ...?" for names a user typed (operation ids, categories, flags): the known name
 * closest to what was typed, or undefined when none is close enough to be a plausible typo.
 */

/** Edit distance (insertions, deletions, substitutions, adjacent transpositions). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

export function closest(typed: string, known: readonly string[]): string | undefined {
  const t = typed.trim().toLowerCase();
  if (!t) return undefined;
  const exact = known.find((k) => k.toLowerCase() === t);
  if (exact !== undefined) return exact;
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const n = name.toLowerCase();
    // A name that starts with what was typed ("Weather" for "Weather, air quality").
    const score = n.startsWith(t) || t.startsWith(n) ? 0.5 : distance(t, n);
    if (!best || score < best.score) best = { name, score };
  }
  if (!best) return undefined;
  return best.score <= Math.max(2, Math.floor(t.length / 3)) ? best.name : undefined;
}

/** ` (did you mean "x"?)` or the empty string. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const c = closest(typed, known);
  return c === undefined ? '' : ` (did you mean ${JSON.stringify(c)}?)`;
}
