/**
 * Coverage of a contract run: what the run exercised (the raw `CoverageData` the runner recorded from
 * every exchange) compared with what the model declares, so reports can say what was never reached.
 *
 * Scope: the operations the run was asked to test (`--only`, or with `--shard` the operations that
 * have results; otherwise every operation of the model). Operations outside the scope are listed as
 * `notInRun`, not counted as missed.
 */
import {
  allParameters,
  declaredResponse,
  propertiesOf,
  type Operation,
  type ServiceModel,
} from 'dataapi/model';
import type { ContractRunResult } from '../results.ts';
import { unsendableAbsences } from '../fetch-headers.ts';

export interface Tally {
  covered: number;
  total: number;
}

export interface StatusCoverage {
  /** Declared response keys ('200', '4XX', 'default'), in the model's order. */
  declared: string[];
  covered: string[];
  missed: string[];
  /** Statuses received that the operation does not declare (no declared key matches). */
  undeclared: number[];
}

export interface CodeCoverage {
  /** Operations of the run scope that use the group. */
  operations: string[];
  declared: number[];
  covered: number[];
  missed: number[];
  /** Codes received by the group's operations that the group does not declare. */
  undeclared: number[];
}

export interface ParameterCoverage {
  /** `query.<name>`, `path.<name>`, `header.<name>`, `cookie.<name>`, `body.<property>`. */
  declared: string[];
  covered: string[];
  missed: string[];
}

export interface CoverageReport {
  totals: {
    operations: Tally;
    previews: Tally;
    statuses: Tally;
    businessCodes: Tally;
    parameters: Tally;
  };
  /** Operations in scope with at least one answered request, and those never answered. */
  operations: { covered: string[]; missed: string[]; notInRun: string[] };
  /** Operations in scope that have a preview variant: answered at least once, or never. */
  previews: { covered: string[]; missed: string[] };
  /** Per operation in scope. */
  statuses: Record<string, StatusCoverage>;
  /** Per business code group used by an operation in scope. */
  businessCodes: Record<string, CodeCoverage>;
  /** Per operation in scope that declares parameters or body properties. */
  parameters: Record<string, ParameterCoverage>;
  /** What fuzzing exercised (runs with --fuzz). */
  fuzz?: FuzzCoverageReport;
  /**
   * What the description declares that the suite never exercises: the callbacks of operations
   * in scope (`operation callback`) and the webhooks (requests the API sends, not answers);
   * required headers that fetch always writes, whose absence no request can carry
   * (`operation header User-Agent missing`: no negative case is sent for them).
   */
  notExercised?: { callbacks: string[]; webhooks: string[]; absentHeaders?: string[] };
}

/**
 * Fuzzing's coverage: declared enum values sent, fields seen both present and absent (required
 * ones: present), boundary values hit (the lowest and highest valid values and lengths, and the
 * first invalid ones beyond them). Missed items read `getScore query.value = 751 (above maximum)`.
 */
export interface FuzzCoverageReport {
  totals: { enumValues: Tally; presence: Tally; boundaries: Tally };
  missed: { enumValues: string[]; presence: string[]; boundaries: string[] };
}

export function fuzzCoverage(result: ContractRunResult): FuzzCoverageReport | undefined {
  if (!result.fuzz) return undefined;
  const totals = {
    enumValues: { covered: 0, total: 0 },
    presence: { covered: 0, total: 0 },
    boundaries: { covered: 0, total: 0 },
  };
  const missed = {
    enumValues: [] as string[],
    presence: [] as string[],
    boundaries: [] as string[],
  };
  for (const [op, stats] of Object.entries(result.fuzz.operations)) {
    const c = stats.coverage;
    for (const [field, e] of Object.entries(c.enums)) {
      const sent = new Set(e.sent.map((v) => JSON.stringify(v)));
      for (const v of e.declared) {
        totals.enumValues.total++;
        if (sent.has(JSON.stringify(v))) totals.enumValues.covered++;
        else missed.enumValues.push(`${op} ${field}=${JSON.stringify(v)}`);
      }
    }
    for (const [field, p] of Object.entries(c.presence)) {
      totals.presence.total++;
      if (p.present > 0 && (p.required || p.absent > 0)) totals.presence.covered++;
      else
        missed.presence.push(
          `${op} ${field} (${p.present === 0 ? 'never sent' : 'never left out'})`,
        );
    }
    for (const [field, b] of Object.entries(c.boundaries))
      for (const label of b.declared) {
        totals.boundaries.total++;
        if (b.hit.includes(label)) totals.boundaries.covered++;
        else missed.boundaries.push(`${op} ${field} ${label}`);
      }
  }
  return { totals, missed };
}

/** The operations a run was asked to test. */
export function scopeOf(result: ContractRunResult, model: ServiceModel): Operation[] {
  const only = result.options.only;
  if (only?.length) return model.operations.filter((op) => only.includes(op.id));
  if (result.options.shard) {
    const ran = new Set(result.results.map((r) => r.operation));
    return model.operations.filter((op) => ran.has(op.id));
  }
  return model.operations;
}

export function computeCoverage(result: ContractRunResult, model: ServiceModel): CoverageReport {
  const raw = result.coverage;
  const scope = scopeOf(result, model);
  const inScope = new Set(scope.map((op) => op.id));
  const reached = new Set(raw.operations);
  const answeredPreview = new Set(raw.previews);

  const operations = {
    covered: scope.filter((op) => reached.has(op.id)).map((op) => op.id),
    missed: scope.filter((op) => !reached.has(op.id)).map((op) => op.id),
    notInRun: model.operations.filter((op) => !inScope.has(op.id)).map((op) => op.id),
  };
  const withPreview = scope.filter((op) => op.preview);
  const previews = {
    covered: withPreview.filter((op) => answeredPreview.has(op.id)).map((op) => op.id),
    missed: withPreview.filter((op) => !answeredPreview.has(op.id)).map((op) => op.id),
  };

  const statuses: Record<string, StatusCoverage> = {};
  for (const op of scope) statuses[op.id] = statusCoverage(op, raw.statuses[op.id] ?? []);

  const businessCodes: Record<string, CodeCoverage> = {};
  for (const group of model.businessCodeGroups) {
    const ops = scope.filter((op) => op.businessCodes === group.name);
    if (!ops.length) continue;
    const received = new Set(ops.flatMap((op) => raw.businessCodes[op.id] ?? []));
    const declared = group.codes.map((c) => c.code);
    businessCodes[group.name] = {
      operations: ops.map((op) => op.id),
      declared,
      covered: declared.filter((c) => received.has(c)),
      missed: declared.filter((c) => !received.has(c)),
      undeclared: [...received].filter((c) => !declared.includes(c)).sort((a, b) => a - b),
    };
  }

  const parameters: Record<string, ParameterCoverage> = {};
  for (const op of scope) {
    const declared = declaredParameters(op, model);
    if (!declared.length) continue;
    const sent = new Set(raw.parameters[op.id] ?? []);
    parameters[op.id] = {
      declared,
      covered: declared.filter((p) => sent.has(p)),
      missed: declared.filter((p) => !sent.has(p)),
    };
  }

  const sum = (xs: { covered: unknown[]; declared: unknown[] }[]): Tally => ({
    covered: xs.reduce((n, x) => n + x.covered.length, 0),
    total: xs.reduce((n, x) => n + x.declared.length, 0),
  });
  return {
    totals: {
      operations: { covered: operations.covered.length, total: scope.length },
      previews: { covered: previews.covered.length, total: withPreview.length },
      statuses: sum(Object.values(statuses)),
      businessCodes: sum(Object.values(businessCodes)),
      parameters: sum(Object.values(parameters)),
    },
    operations,
    previews,
    statuses,
    businessCodes,
    parameters,
    ...(result.fuzz ? { fuzz: fuzzCoverage(result)! } : {}),
    ...notExercised(scope, model),
  };
}

/**
 * Callbacks of the operations in scope and the webhooks: declared, never sent by the suite; and
 * the required headers whose absence cannot be sent (fetch writes them).
 */
function notExercised(
  scope: Operation[],
  model: ServiceModel,
): Pick<CoverageReport, 'notExercised'> {
  const callbacks = scope.flatMap((op) => (op.callbacks ?? []).map((name) => `${op.id} ${name}`));
  const webhooks = (model.webhooks ?? []).map((w) => `${w.path} (${w.method.toUpperCase()})`);
  const absentHeaders = unsendableAbsences(scope);
  if (callbacks.length + webhooks.length + absentHeaders.length === 0) return {};
  return {
    notExercised: {
      callbacks,
      webhooks,
      ...(absentHeaders.length > 0 ? { absentHeaders } : {}),
    },
  };
}

/** A declared key is covered by a received status that it matches (see declaredResponse). */
function statusCoverage(op: Operation, received: number[]): StatusCoverage {
  const declared = op.responses.map((r) => r.status);
  const keyFor = (s: number): string | undefined => declaredResponse(op, s)?.status;
  const hit = new Set<string>();
  const undeclared: number[] = [];
  for (const s of received) {
    const k = keyFor(s);
    if (k === undefined) undeclared.push(s);
    else hit.add(k);
  }
  return {
    declared,
    covered: declared.filter((d) => hit.has(d)),
    missed: declared.filter((d) => !hit.has(d)),
    undeclared,
  };
}

/** Parameters as the runner records them (`<in>.<name>`), plus the body's top-level properties. */
export function declaredParameters(op: Operation, model: ServiceModel): string[] {
  const out = allParameters(op.parameters).map((p) => `${p.in}.${p.name}`);
  if (op.body)
    for (const name of propertiesOf(model, op.body.schema, { alternatives: true }).keys())
      out.push(`body.${name}`);
  return [...new Set(out)];
}
