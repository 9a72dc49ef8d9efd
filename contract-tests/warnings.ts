/**
 * Description warnings: what the suite finds wrong with (or missing from) the description rather
 * than the target: an example that does not match its own schema, a status a probe received that
 * the operation does not declare, a schema no value can satisfy, and the normaliser's findings.
 * Each names the place in the description as a JSON pointer. They never fail a run (exit 0),
 * except under `--strict`.
 */
import {
  Diagnostics,
  escapeToken,
  runSeverity,
  type CheckCode,
  type SeveritySettings,
  type ModelFinding,
  type ServiceModel,
  type WarningCode,
} from 'dataapi/model';

export interface DescriptionWarning {
  /**
   * Stable code of the diagnostics catalogue: `example-invalid`, `undeclared-status`, a normaliser
   * finding's, ...; a check's name where the user set that check's severity to warning.
   */
  code: WarningCode | CheckCode;
  message: string;
  /** JSON pointer into the (bundled) description, e.g. `/paths/~1pets/get/responses`. */
  pointer: string;
  /** The operation it was found on, when one. */
  operation?: string;
  /**
   * The file and line the author wrote it at (the description's own findings): in a split
   * description the pointer of the bundle may name a place no file has.
   */
  file?: string;
  line?: number;
}

/** A JSON pointer from a base pointer and raw tokens (escaped here). */
export function pointerOf(base: string, ...tokens: (string | number)[]): string {
  return [base, ...tokens.map(escapeToken)].join('/');
}

/** One entry per (code, pointer, message), sorted by pointer then code. */
export function dedupeWarnings(list: DescriptionWarning[]): DescriptionWarning[] {
  const seen = new Map<string, DescriptionWarning>();
  for (const w of list) {
    const key = `${w.code}\u0000${w.pointer}\u0000${w.message}`;
    if (!seen.has(key)) seen.set(key, w);
  }
  return [...seen.values()].sort(
    (a, b) =>
      a.pointer.localeCompare(b.pointer, 'en') ||
      a.code.localeCompare(b.code, 'en') ||
      a.message.localeCompare(b.message, 'en'),
  );
}

/** The normaliser's findings about the description (repaired or ignored), when the model has them. */
export function modelWarnings(model: ServiceModel): DescriptionWarning[] {
  const findings = (model as { findings?: ModelFinding[] }).findings ?? [];
  return findings.map((f) => ({
    code: f.code,
    message: f.message,
    pointer: f.pointer,
    ...(f.operation !== undefined ? { operation: f.operation } : {}),
    ...(f.file && f.line !== undefined ? { file: f.file, line: f.line } : {}),
  }));
}

/**
 * What one contract run finds besides its tests' results, created per run and passed in the run's
 * context: errors (each fails the run) and description warnings (deduplicated and sorted when read),
 * and the run's one sink of findings (model/finding.ts): the description's own and every check's,
 * each severity decided by the run's settings.
 */
export class RunDiagnostics {
  readonly errors: string[] = [];
  private readonly found: DescriptionWarning[] = [];
  readonly findings: Diagnostics;

  constructor(settings?: SeveritySettings) {
    this.findings = new Diagnostics(runSeverity(settings));
  }

  error(...messages: string[]): void {
    this.errors.push(...messages);
  }

  warn(...warnings: DescriptionWarning[]): void {
    this.found.push(...warnings);
  }

  warnings(): DescriptionWarning[] {
    return dedupeWarnings(this.found);
  }
}
