/**
 * The SARIF 2.1.0 report (`contract-results.sarif`) for code scanning: one result per failed check
 * (level error, rule = the check), per description warning (warning, rule = its code) and per
 * toolkit fault (note), each located in the description by the JSON pointer of its operation (or
 * of the warning). The results carry no line: the judge never reads the description's text.
 */
import {
  escapeToken,
  isDiagnosticCode,
  diagnostic,
  type Operation,
  type ServiceModel,
} from 'dataapi/model';
import { sarifLog, type SarifLevel, type SarifResultInput } from '../../model/sarif.ts';
import { toolkitVersion } from '../../model/version.ts';
import { CHECK_TITLES, type CheckName, type CheckResult } from '../results.ts';
import { headline, type ContractReport } from './report.ts';
import { faultsOf, warningsOf } from './findings-view.ts';

export interface SarifOptions {
  model: ServiceModel;
  /** The description file as results name it (repository-relative). */
  descriptionFile: string;
}

const RANK: Record<SarifLevel, number> = { note: 0, warning: 1, error: 2 };

/** The pointer of an operation's variant: an explicit `/demo` path has its own. */
function pointerOf(op: Operation | undefined, r: CheckResult): string {
  if (!op) return '';
  if (r.variant === 'preview' && op.preview?.explicit)
    return `/paths/${escapeToken(op.preview.path)}/${op.method}`;
  return op.pointer;
}

function logicalOf(op: Operation | undefined, r: Pick<CheckResult, 'operation' | 'variant'>) {
  if (!op) return r.operation;
  const p = r.variant === 'preview' && op.preview ? op.preview.path : op.path;
  return `${op.method.toUpperCase()} ${p} (${r.variant === 'preview' ? `${r.operation} preview` : r.operation})`;
}

function ruleTitle(id: string): string {
  if (Object.hasOwn(CHECK_TITLES, id)) return CHECK_TITLES[id as CheckName];
  if (isDiagnosticCode(id)) return diagnostic(id).title;
  return id === 'run-error'
    ? 'the run could not test (an unreachable target, a file that failed)'
    : id;
}

export function renderSarif(report: ContractReport, o: SarifOptions): string {
  const ops = new Map(o.model.operations.map((op) => [op.id, op]));
  const results: SarifResultInput[] = [];
  const at = (pointer: string) => ({
    file: o.descriptionFile,
    ...(pointer ? { properties: { pointer } } : {}),
  });
  for (const r of report.results.filter((x) => x.status === 'failed')) {
    const op = ops.get(r.operation);
    const where = at(pointerOf(op, r));
    results.push({
      ruleId: r.check,
      level: 'error',
      message: `${r.variant === 'preview' ? `${r.operation} (preview)` : r.operation} ${headline(r)}`,
      ...where,
      logical: logicalOf(op, r),
      properties: { ...where.properties, operation: r.operation, variant: r.variant },
    });
  }
  for (const w of warningsOf(report))
    results.push({
      ruleId: w.code,
      level: 'warning',
      message: `${w.operation !== undefined ? `${w.operation}: ` : ''}${w.message}`,
      ...at(w.pointer),
      ...(w.operation !== undefined ? { logical: w.operation } : {}),
    });
  for (const f of faultsOf(report)) {
    const op = ops.get(f.operation);
    results.push({
      ruleId: 'toolkit-fault',
      level: 'note',
      message: `${f.operation} ${f.check}: ${f.message}`,
      ...at(op?.pointer ?? ''),
      logical: logicalOf(op, { operation: f.operation, variant: 'main' }),
    });
  }
  for (const e of report.errors ?? [])
    results.push({ ruleId: 'run-error', level: 'error', message: e, file: o.descriptionFile });
  // Each rule at the highest level it was reported at.
  const levels = new Map<string, SarifLevel>();
  for (const r of results)
    if (RANK[r.level] > RANK[levels.get(r.ruleId) ?? 'note'] || !levels.has(r.ruleId))
      levels.set(r.ruleId, r.level);
  const rules = [...levels.keys()]
    .sort()
    .map((id) => ({ id, description: ruleTitle(id), level: levels.get(id)! }));
  return sarifLog({ name: 'dataapi contract', version: toolkitVersion() }, rules, results);
}
