/** Small statistics and formatting helpers shared by the benchmarks. */

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const maxOf = (values: number[]) => (values.length ? Math.max(...values) : Number.NaN);
export const minOf = (values: number[]) => (values.length ? Math.min(...values) : Number.NaN);

export const fmtMs = (ms: number) =>
  Number.isNaN(ms) ? 'n/a' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
export const fmtMiB = (kb: number | undefined) =>
  kb === undefined || Number.isNaN(kb) ? 'n/a' : `${Math.round(kb / 1024)} MiB`;
export const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : 'n/a');
export const fmtInt = (n: number) =>
  Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a';

/** One target of the issue: met or not, with the measured and the allowed value as text. */
export interface Verdict {
  target: string;
  measured: string;
  met: boolean | undefined;
}

export const verdictText = (v: Verdict) =>
  v.met === undefined ? 'not measured' : v.met ? 'met' : '**NOT met**';
