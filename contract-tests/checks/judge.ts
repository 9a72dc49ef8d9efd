/** What every check is built from: the probes it judges and the violations it finds. */
import {
  declaredResponse,
  type NotTestedCode,
  type Operation,
  type Response,
  type ServiceModel,
  type WarningCode,
} from 'dataapi/model';
import type { ContractConfig } from '../config.ts';
import { ok, type Probe, type ProbeSet } from '../probes.ts';

export interface Violation {
  probe: Probe;
  expected: string;
  actual: string;
  errors?: string[];
  excerpt?: string;
  /**
   * Set when the description, not the target, is at fault (an undeclared status on a probe, a
   * schema no value satisfies): reported as a warning at this pointer, never a failure.
   */
  description?: { code: WarningCode; pointer: string; message?: string };
}

export interface CheckContext {
  model: ServiceModel;
  op: Operation;
  set: ProbeSet;
  config: ContractConfig;
}

export type Judge = (ctx: CheckContext) => {
  covered: Probe[];
  violations: Violation[];
  skip?: string;
  /** What the check could not judge for want of something (test data, credentials), and why. */
  notTested?: { code: NotTestedCode; reason: string };
};

// The one status-to-response matcher lives in the model; checks import it from here.
export { declaredResponse };

/**
 * The declared response a probe's answer is judged against. A wrong-method answer comes from the
 * path, not from this operation (the request reached none): only a declaration of exactly its
 * status (405) applies to it, never the operation's `default` or `4XX`.
 */
export function judgedResponse(op: Operation, p: Probe): Response | undefined {
  const s = p.exchange.record.status!;
  const r = declaredResponse(op, s);
  return p.role === 'wrong-method' && r && r.status !== String(s) ? undefined : r;
}

/** A violation the description is to blame for (see Violation.description). */
export function descriptionWarning(
  v: Omit<Violation, 'description'>,
  code: WarningCode,
  pointer: string,
  message?: string,
): Violation {
  return { ...v, description: { code, pointer, ...(message !== undefined ? { message } : {}) } };
}

/** Probes that test refusals (keys, invalid input, methods, paths): their statuses are the target's choice. */
export const isProbeOfRefusal = (p: Probe) =>
  [
    'no-key',
    'wrong-key',
    'negative',
    'wrong-method',
    'unknown-path',
    'wrong-content-type',
  ].includes(p.role);

export const own = (ctx: CheckContext) =>
  ctx.set.probes.filter((p) => p.op === ctx.op && p.role !== 'unknown-path');
export const answered = (p: Probe) => p.exchange.record.status !== undefined;
/**
 * A probe on a resource the suite made up, answered 404: the target lacks the resource, and the
 * refusal the probe was built to provoke (a key's, invalid input's, a method's) cannot show. Every
 * judge of a refusal passes over it, in the suite, fuzzing and replays alike.
 */
export const onMissingResource = (p: Probe) =>
  (p.uncertain === true || p.invented === true) && p.exchange.record.status === 404;
export const statusOf = (p: Probe) => p.exchange.record.status!;
export const mediaOf = (v: string | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase();
export const actualOf = (p: Probe) => {
  const r = p.exchange.record;
  if (r.status === undefined) return r.error ?? 'no response';
  const code = r.businessCode !== undefined ? `, business code ${r.businessCode}` : '';
  return `HTTP ${r.status}${code}${r.reason !== undefined ? ` (${r.reason})` : ''}`;
};
export const isValid = (p: Probe) => p.role === 'valid' || p.role === 'paging';

/** Header text to the schema's type before validating (headers are strings on the wire). */
export function typed(raw: string, schema: Record<string, unknown>): unknown {
  const t = schema['type'];
  const types = Array.isArray(t) ? t : [t];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(raw.trim()))
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  // A list travels in simple style: items comma-separated (`1,2,3`; none is an empty value).
  if (types.includes('array') && !types.includes('string')) {
    const items = schema['items'];
    const itemSchema = typeof items === 'object' && items !== null ? items : {};
    return raw.trim() === ''
      ? []
      : raw.split(',').map((item) => typed(item.trim(), itemSchema as Record<string, unknown>));
  }
  return raw;
}

export { ok };
