/**
 * `dataapi lint`: the catalogue's own rules on top of OpenAPI validity. Returns findings with the
 * JSON pointer, the line and a stable rule id; throws SpecError only for input it cannot read
 * (unreadable, not YAML/JSON, not a valid OpenAPI description: exit code 2).
 */
import { loadSpec, parseSpecText, readSpecText, SpecError, type LoadedSpec } from '../load.ts';
import { splitPointer } from '../../model/pointer.ts';
import { normalise } from '../normalise/index.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { escapeToken } from '../../model/pointer.ts';
import { checkCatalogue, checkOperationIds } from './rules.ts';
import { checkSunsets } from './lifecycle.ts';
import { today } from '../../model/lifecycle.ts';
import { Diagnostics } from '../../model/finding.ts';
import { readAllowExtension } from '../diff/allow.ts';
import type { Problem } from '../normalise/problems.ts';
import type { Add, LintFinding, LintInput, LintReport } from './types.ts';

export { RULES, type LintFinding, type LintReport, type RuleId, type Severity } from './types.ts';

export interface LintOptions {
  /** The day sunsets are compared with (`YYYY-MM-DD`, UTC; default today): tests fix it. */
  today?: string;
}

export async function lintSpec(specPath: string, options: LintOptions = {}): Promise<LintReport> {
  const read = await readSpecText(specPath);
  const { shown, text } = read;
  const parsed = parseSpecText(shown, text);
  // The catalogue decides each rule's severity (a rule's milder case one step down).
  const findings = new Diagnostics();
  // Shared components are reached from many operations: each place is reported once.
  const seen = new Set<string>();
  const add: Add = (f, options) => {
    const key = `${f.code}\u0000${f.pointer}\u0000${f.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.add(f, options);
  };
  const raw = isObject(parsed.raw) ? (parsed.raw as Obj) : {};
  checkOperationIds(raw, add);

  let loaded: LoadedSpec;
  try {
    loaded = await loadSpec(specPath, read);
  } catch (err) {
    // The validator also rejects duplicate operationIds; those are reported as findings.
    if (err instanceof SpecError && findings.all.some((f) => f.code === 'operation-id-unique')) {
      return report(shown, findings, parsed.locate, 0);
    }
    throw err;
  }
  // Swagger 2.0 input: what the converter did (and could not carry over) is said, as a warning.
  for (const r of loaded.repairs ?? [])
    if (r.code === 'converted-from-swagger2' || r.code === 'swagger2-conversion-loss')
      add({ code: 'swagger2-converted', pointer: r.pointer, message: r.message });
  // Read by `dataapi diff`; lint only checks its shape (a known rule id and a reason).
  for (const p of readAllowExtension(loaded.document).problems) add(findingOfProblem(p));
  // A malformed extension is one finding among the others: the model is built without it.
  const model = normalise(loaded, {
    onProblems: (problems) => {
      for (const p of problems) add(findingOfProblem(p));
    },
  });
  checkCatalogue(loaded.document, model, add);
  checkSunsets(model, options.today ?? today(), add);
  return {
    ...report(shown, findings, loaded.locate, model.operations.length),
    description: model.findings,
  };
}

/**
 * A normaliser's problem as a lint finding, under the rule its code names: its own code where
 * that is a rule (a life-cycle extension's), extension-invalid for any other malformed
 * x-dataapi-* extension. Where the problem is plays no part.
 */
export const findingOfProblem = (p: Problem): LintInput => ({
  code: p.code === 'spec-extension' ? 'extension-invalid' : p.code,
  pointer: p.pointer ?? '',
  message: p.message,
});

function report(
  spec: string,
  sink: Diagnostics,
  locate: LoadedSpec['locate'],
  operations: number,
): LintReport {
  const findings = (sink.all as LintFinding[]).map((f): LintFinding => {
    const pos = locateNearest(locate, f.pointer);
    return { ...f, ...(pos ? { line: pos.line, column: pos.column } : {}) };
  });
  findings.sort(
    (a, b) =>
      (a.line ?? 0) - (b.line ?? 0) ||
      a.pointer.localeCompare(b.pointer, 'en') ||
      a.code.localeCompare(b.code, 'en'),
  );
  return {
    spec,
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    operations,
  };
}

/** A missing property is located at its closest existing parent. */
function locateNearest(locate: LoadedSpec['locate'], pointer: string) {
  const tokens = splitPointer(pointer);
  for (let n = tokens.length; n >= 0; n--) {
    const p = tokens
      .slice(0, n)
      .map((t) => '/' + escapeToken(t))
      .join('');
    const pos = locate(p);
    if (pos) return pos;
  }
  return undefined;
}
