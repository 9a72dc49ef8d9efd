/**
 * Description warnings: what the suite finds wrong with (or missing from) the description rather
 * than the target: an example that does not match its own schema, a status a probe received that
 * the operation does not declare, a schema no value can satisfy, and the normaliser's findings.
 * Each names the place in the description as a JSON pointer. They never fail a run (exit 0),
 * except under `--strict`.
 */
import { escapeToken, type ServiceModel } from 'dataapi/model';

export interface DescriptionWarning {
  /** Stable code: `invalid-example`, `undeclared-status`, `unsatisfiable-schema`, or a normaliser finding's. */
  code: string;
  message: string;
  /** JSON pointer into the (bundled) description, e.g. `/paths/~1pets/get/responses`. */
  pointer: string;
  /** The operation it was found on, when one. */
  operation?: string;
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

interface Finding {
  code: string;
  message: string;
  pointer: string;
  operation?: string;
}

/** The normaliser's findings about the description (repaired or ignored), when the model has them. */
export function modelWarnings(model: ServiceModel): DescriptionWarning[] {
  const findings = (model as { findings?: Finding[] }).findings ?? [];
  return findings.map((f) => ({
    code: f.code,
    message: f.message,
    pointer: f.pointer,
    ...(f.operation !== undefined ? { operation: f.operation } : {}),
  }));
}
