/** The shape of one entry of the diagnostics catalogue (model/diagnostics.ts). */

/** lint and the mock say error or warning; `dataapi diff` says breaking, warning or compatible. */
export type DiagnosticSeverity = 'error' | 'warning' | 'breaking' | 'compatible';

/** Which part of the toolkit reports a code. */
export type DiagnosticSource =
  'load' | 'normalise' | 'lint' | 'server' | 'mock' | 'contract' | 'diff';

export interface DiagnosticEntry {
  /** The usual severity (a lint rule may report some cases one step lower: see its message). */
  severity: DiagnosticSeverity;
  /** What the code means, in one line. */
  title: string;
  /** What to do about it. */
  action: string;
  sources: readonly DiagnosticSource[];
}
