/** The shape of one entry of the diagnostics catalogue (model/diagnostics.ts). */

/**
 * lint and the mock say error or warning; `dataapi diff` says breaking, warning or compatible; a
 * check of an exchange says failure (the target breaks the description), a description warning
 * warning, and what a run lacked not-tested.
 */
export type DiagnosticSeverity =
  'error' | 'warning' | 'breaking' | 'compatible' | 'failure' | 'not-tested';

/** Which part of the toolkit reports a code. */
export type DiagnosticSource =
  'load' | 'normalise' | 'lint' | 'server' | 'mock' | 'contract' | 'check' | 'diff';

export interface DiagnosticEntry {
  /** The usual severity (a lint rule may report some cases one step lower: see its message). */
  severity: DiagnosticSeverity;
  /** What the code means, in one line. */
  title: string;
  /** What to do about it. */
  action: string;
  sources: readonly DiagnosticSource[];
  /**
   * The norm a code enforces (the OpenAPI clause, the JSON Schema or RFC section), or why it is a
   * convention or a limit of this toolkit instead; a diff rule's says what promise it keeps.
   * Required: an entry without one does not compile.
   */
  norm: string;
}

/** The name the catalogue's producers use for an entry (every entry names its norm). */
export type NormedEntry = DiagnosticEntry;
