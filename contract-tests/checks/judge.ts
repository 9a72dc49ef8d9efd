/** What every check is built from: the probes it judges and the violations it finds. */
import { declaredResponse, type Operation, type ServiceModel } from 'dataapi/model';
import type { ContractConfig } from '../config.ts';
import { ok, type Probe, type ProbeSet } from '../probes.ts';

export interface Violation {
  probe: Probe;
  expected: string;
  actual: string;
  errors?: string[];
  excerpt?: string;
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
};

// The one status-to-response matcher lives in the model; checks import it from here.
export { declaredResponse };

export const own = (ctx: CheckContext) =>
  ctx.set.probes.filter((p) => p.op === ctx.op && p.role !== 'unknown-path');
export const answered = (p: Probe) => p.exchange.record.status !== undefined;
export const statusOf = (p: Probe) => p.exchange.record.status!;
export const mediaOf = (v: string | undefined) => (v ?? '').split(';')[0]!.trim().toLowerCase();
export const actualOf = (p: Probe) => {
  const r = p.exchange.record;
  if (r.status === undefined) return r.error ?? 'no response';
  return `HTTP ${r.status}${r.businessCode !== undefined ? `, business code ${r.businessCode}` : ''}`;
};
export const isValid = (p: Probe) => p.role === 'valid' || p.role === 'paging';

/** Header text to the schema's type before validating (headers are strings on the wire). */
export function typed(raw: string, schema: Record<string, unknown>): unknown {
  const t = schema['type'];
  const types = Array.isArray(t) ? t : [t];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(raw.trim()))
    return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

export { ok };
