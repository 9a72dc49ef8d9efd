/** What every benchmark receives, and what it hands back for BENCHMARKS.md. */
import type { Verdict } from './stats.ts';

export interface BenchContext {
  /** Project root (commands run from here, paths in the report are relative to it). */
  root: string;
  /** Scratch folder for outputs (gitignored), emptied by the runner. */
  work: string;
  /** Measured runs per figure (the median is reported). */
  runs: number;
  /** Warm-up runs before measuring (not counted). */
  warmup: number;
  quick: boolean;
  log(line: string): void;
}

export interface Section {
  id: string;
  title: string;
  /** Markdown body: tables, commands, notes. */
  body: string;
  verdicts: Verdict[];
}
