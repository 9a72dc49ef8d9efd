/**
 * A small seeded sampler: a deterministic value for a JSON Schema 2020-12 of the model. Static
 * mode takes the schema's own hints first (const, examples, default, the first enum value);
 * dynamic mode draws from a seeded generator, so the same seed gives the same data.
 */
import type { JsonSchema, ServiceModel } from 'dataapi/model';
import { deref } from 'dataapi/runtime/server';

export interface SampleOptions {
  /** Draw values from the seed instead of the schema's hints. */
  dynamic?: boolean;
  seed?: number;
}

/** mulberry32: tiny, fast, good enough for sample data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a text (FNV-1a), for per-operation seeds. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const WORDS = ['alpha', 'bravo', 'delta', 'echo', 'kilo', 'lima', 'oscar', 'sierra', 'tango'];
const MAX_DEPTH = 8;

type Obj = { [key: string]: unknown };

export function sample(
  model: ServiceModel,
  schema: JsonSchema,
  options: SampleOptions = {},
): unknown {
  const rnd = seededRandom(options.seed ?? 1);
  const dynamic = options.dynamic === true;
  const pick = <T>(items: readonly T[]): T =>
    items[dynamic ? Math.floor(rnd() * items.length) : 0] as T;

  function types(s: Obj): string[] {
    if (Array.isArray(s.type)) return s.type as string[];
    if (typeof s.type === 'string') return [s.type];
    if (s.properties || s.required || s.additionalProperties) return ['object'];
    if (s.items || s.prefixItems) return ['array'];
    return [];
  }

  function value(node: JsonSchema | undefined, depth: number): unknown {
    const s = deref(model, node);
    if (s === undefined || s === true) return dynamic ? pick(WORDS) : 'string';
    if (s === false) return null;
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum) && s.enum.length > 0) return pick(s.enum);
    if (!dynamic) {
      if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
      if ('default' in s) return s.default;
    }
    if (Array.isArray(s.allOf) && s.allOf.length > 0) {
      const parts = (s.allOf as JsonSchema[]).map((p) => value(p, depth + 1));
      if (parts.every((p) => typeof p === 'object' && p !== null && !Array.isArray(p))) {
        const rest = { ...s };
        delete rest.allOf;
        const own = types(rest).length > 0 ? value(rest, depth + 1) : {};
        return Object.assign({}, ...parts, own);
      }
      return parts[0];
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = s[key];
      if (Array.isArray(options) && options.length > 0) {
        const nonNull = (options as JsonSchema[]).filter(
          (o) => !(typeof o === 'object' && o.type === 'null'),
        );
        return value(pick(nonNull.length > 0 ? nonNull : (options as JsonSchema[])), depth + 1);
      }
    }
    const ts = types(s);
    const nonNull = ts.filter((t) => t !== 'null');
    const type = nonNull.length > 0 ? pick(nonNull) : ts.length > 0 ? 'null' : 'string';
    if (depth > MAX_DEPTH) {
      if (ts.includes('null')) return null;
      if (type === 'object') return {};
      if (type === 'array') return [];
    }
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return dynamic ? rnd() < 0.5 : true;
      case 'integer':
      case 'number':
        return numberFor(s, type === 'integer');
      case 'array':
        return arrayFor(s, depth);
      case 'object':
        return objectFor(s, depth);
      default:
        return stringFor(s);
    }
  }

  function numberFor(s: Obj, integer: boolean): number {
    const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
    const exMin = num('exclusiveMinimum');
    const exMax = num('exclusiveMaximum');
    let min = num('minimum') ?? (exMin !== undefined ? exMin + (integer ? 1 : 1e-6) : undefined);
    let max = num('maximum') ?? (exMax !== undefined ? exMax - (integer ? 1 : 1e-6) : undefined);
    if (min === undefined && max === undefined) {
      min = 0;
      max = integer ? 100 : 1;
    } else if (min === undefined) min = (max as number) - 100;
    else if (max === undefined) max = min + 100;
    let n = dynamic ? min + rnd() * ((max as number) - min) : min;
    if (integer) n = Math.ceil(n);
    const step = num('multipleOf');
    if (step && step > 0) n = Math.ceil(n / step) * step;
    if (!integer && !dynamic && min === 0 && max === 1) n = 0.5;
    return integer ? Math.min(Math.round(n), Math.floor(max as number)) : n;
  }

  function stringFor(s: Obj): string {
    const format = typeof s.format === 'string' ? s.format : '';
    const n = Math.floor(rnd() * 1000);
    let text: string;
    switch (format) {
      case 'date-time':
        text = new Date(Date.UTC(2025, 0, 1 + (dynamic ? n % 365 : 0), 8)).toISOString();
        break;
      case 'date':
        text = new Date(Date.UTC(2025, 0, 1 + (dynamic ? n % 365 : 0))).toISOString().slice(0, 10);
        break;
      case 'time':
        text = '08:00:00Z';
        break;
      case 'email':
        text = `user${dynamic ? n : ''}@example.com`;
        break;
      case 'uri':
      case 'url':
      case 'uri-reference':
        text = `https://example.com/${dynamic ? pick(WORDS) : 'resource'}`;
        break;
      case 'hostname':
        text = 'example.com';
        break;
      case 'ipv4':
        text = dynamic ? `192.0.2.${n % 255}` : '192.0.2.1';
        break;
      case 'ipv6':
        text = '2001:db8::1';
        break;
      case 'uuid':
        text = dynamic
          ? `${(n * 7919).toString(16).padStart(8, '0').slice(0, 8)}-0000-4000-8000-000000000000`
          : '00000000-0000-4000-8000-000000000000';
        break;
      case 'byte':
        text = 'c2FtcGxl';
        break;
      default:
        text = dynamic ? `${pick(WORDS)}-${n}` : 'string';
    }
    const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
    const maxLength = typeof s.maxLength === 'number' ? s.maxLength : undefined;
    while (text.length < minLength) text += 'x';
    if (maxLength !== undefined && text.length > maxLength) text = text.slice(0, maxLength);
    return text;
  }

  function arrayFor(s: Obj, depth: number): unknown[] {
    const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
    const maxItems = typeof s.maxItems === 'number' ? s.maxItems : minItems + 3;
    const count = Math.min(maxItems, Math.max(minItems, dynamic ? 1 + Math.floor(rnd() * 3) : 1));
    const out: unknown[] = [];
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
    for (let i = 0; i < count; i++) {
      const item = value(prefix[i] ?? (s.items as JsonSchema | undefined), depth + 1);
      if (s.uniqueItems === true && out.some((o) => JSON.stringify(o) === JSON.stringify(item))) {
        if (typeof item === 'string') out.push(`${item}-${i}`);
        else if (typeof item === 'number') out.push(item + i);
        continue;
      }
      out.push(item);
    }
    return out;
  }

  function objectFor(s: Obj, depth: number): Obj {
    const out: Obj = {};
    const props = (
      typeof s.properties === 'object' && s.properties !== null ? s.properties : {}
    ) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    for (const [name, sub] of Object.entries(props)) {
      // Deep optional branches are cut so recursive schemas stay small.
      if (!required.has(name) && (depth > 4 || (dynamic && rnd() < 0.2))) continue;
      Object.defineProperty(out, name, {
        value: value(sub, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    for (const name of required) {
      if (!(name in out)) {
        Object.defineProperty(out, name, {
          value: dynamic ? pick(WORDS) : 'string',
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
    for (let i = 0; Object.keys(out).length < minProps && i < minProps + 5; i++) {
      out[`extra${i}`] = value(
        typeof s.additionalProperties === 'object' ? (s.additionalProperties as JsonSchema) : true,
        depth + 1,
      );
    }
    return out;
  }

  return value(schema, 0);
}
