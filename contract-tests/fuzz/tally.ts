/**
 * What fuzzing exercised, per declared field: how often it was present and absent, which enum
 * values were sent, which boundary values (the first and last valid values and lengths, and the
 * first invalid ones beyond them) were hit.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import type { Obj } from 'dataapi/model';
import { effective, integerBounds, typesOf } from 'dataapi/runtime/sampler';
import { MAX_SENT_LENGTH } from '../negatives.ts';
import type { RequestSpec } from '../requests.ts';
import { fieldsOf, valueOf, type Field } from './fields.ts';
import type { Mutation } from './mutations.ts';
import type { FuzzCoverageData } from './types.ts';

interface Edge {
  label: string;
  valid: boolean;
  hit: (v: unknown) => boolean;
}

const num = (s: Obj, k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
const length = (v: unknown) => (typeof v === 'string' ? [...v].length : -1);

function edgesOf(model: ServiceModel, f: Field): Edge[] {
  const e = effective(model, f.schema);
  if (e.choices.length > 0) return [];
  const s = e.s;
  const types = typesOf(s);
  const out: Edge[] = [];
  const at = (label: string, valid: boolean, hit: (v: unknown) => boolean) =>
    out.push({ label, valid, hit });
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) {
    const integer = types.includes('integer') && !types.includes('number');
    const exact = (n: number | undefined) =>
      n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER - 2e6 ? n : undefined;
    const { min, max } = integerBounds(s, { range: 'wide' });
    const [lo, hi] = [exact(num(s, 'minimum')), exact(num(s, 'maximum'))];
    const [xlo, xhi] = [exact(num(s, 'exclusiveMinimum')), exact(num(s, 'exclusiveMaximum'))];
    if (lo !== undefined || (integer && xlo !== undefined))
      at(`= ${integer ? min : lo} (lowest valid)`, true, (v) => v === (integer ? min : lo));
    if (hi !== undefined || (integer && xhi !== undefined))
      at(`= ${integer ? max : hi} (highest valid)`, true, (v) => v === (integer ? max : hi));
    if (lo !== undefined) at(`= ${lo - 1} (below minimum)`, false, (v) => v === lo - 1);
    if (hi !== undefined) at(`= ${hi + 1} (above maximum)`, false, (v) => v === hi + 1);
    if (xlo !== undefined) at(`= ${xlo} (exclusiveMinimum)`, false, (v) => v === xlo);
    if (xhi !== undefined) at(`= ${xhi} (exclusiveMaximum)`, false, (v) => v === xhi);
  }
  if (types.includes('string') && types.length === 1) {
    const minLen = num(s, 'minLength');
    const maxLen = num(s, 'maxLength');
    if (minLen !== undefined) at(`length ${minLen} (minLength)`, true, (v) => length(v) === minLen);
    if (maxLen !== undefined) at(`length ${maxLen} (maxLength)`, true, (v) => length(v) === maxLen);
    if (maxLen !== undefined && maxLen < (f.onWire ? MAX_SENT_LENGTH.onWire : MAX_SENT_LENGTH.body))
      at(`length ${maxLen + 1} (above maxLength)`, false, (v) => length(v) === maxLen + 1);
    if (minLen !== undefined && minLen - 1 >= (f.onWire ? 1 : 0))
      at(`length ${minLen - 1} (below minLength)`, false, (v) => length(v) === minLen - 1);
  }
  return out;
}

export class FuzzTally {
  private readonly fields: { f: Field; edges: Edge[]; enumValues?: unknown[] }[];
  readonly data: FuzzCoverageData = { presence: {}, enums: {}, boundaries: {} };

  constructor(model: ServiceModel, op: Operation) {
    this.fields = fieldsOf(model, op)
      .filter((f) => !f.untouched)
      .map((f) => {
        const en = effective(model, f.schema).s['enum'];
        return {
          f,
          edges: edgesOf(model, f),
          ...(Array.isArray(en) && en.length > 0 ? { enumValues: en } : {}),
        };
      });
    for (const { f, edges, enumValues } of this.fields) {
      this.data.presence[f.key] = { required: f.required, present: 0, absent: 0 };
      if (enumValues) this.data.enums[f.key] = { declared: enumValues, sent: [] };
      if (edges.length > 0)
        this.data.boundaries[f.key] = { declared: edges.map((e) => e.label), hit: [] };
    }
  }

  /** A generated valid request that was sent. */
  valid(spec: RequestSpec): void {
    for (const { f, edges, enumValues } of this.fields) {
      const v = valueOf(spec, f);
      const p = this.data.presence[f.key]!;
      if (v === undefined) {
        p.absent++;
        continue;
      }
      p.present++;
      if (enumValues) this.sent(this.data.enums[f.key]!, v);
      for (const e of edges) if (e.valid && e.hit(v)) this.hit(f.key, e.label);
    }
  }

  /** A generated invalid request that was sent. */
  invalid(m: Mutation): void {
    const entry = m.field && this.fields.find((x) => x.f.key === m.field!.key);
    if (!entry) return;
    for (const e of entry.edges) if (!e.valid && e.hit(m.value)) this.hit(entry.f.key, e.label);
  }

  private sent(entry: { declared: unknown[]; sent: unknown[] }, v: unknown): void {
    const json = JSON.stringify(v);
    if (entry.sent.some((x) => JSON.stringify(x) === json)) return;
    entry.sent.push(v);
    const order = (x: unknown) =>
      entry.declared.findIndex((d) => JSON.stringify(d) === JSON.stringify(x));
    entry.sent.sort((a, b) => order(a) - order(b));
  }

  private hit(key: string, label: string): void {
    const b = this.data.boundaries[key]!;
    if (b.hit.includes(label)) return;
    b.hit.push(label);
    b.hit.sort((x, y) => b.declared.indexOf(x) - b.declared.indexOf(y));
  }
}
