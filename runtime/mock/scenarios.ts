/**
 * Scenario switches, in Prism's conventions: the `Prefer` header (`code=429`, `example=stale`,
 * `dynamic=true`, and `business-code=505`, `seed=7`) or the query forms `__code`, `__example`,
 * `__dynamic`, `__business_code`, `__seed`. The query forms are removed before validation, so
 * they never count as unknown or invalid parameters.
 */
import type { Response } from 'dataapi/model';

export interface Scenario {
  /** The status asked for (three digits, as Prism reads it). */
  code?: number;
  /** A `code` that is not three digits, as sent (Prism answers 422). */
  badCode?: string;
  /** The declared response `code` picked when it is not the success one (answered as declared). */
  response?: Response;
  example?: string;
  dynamic?: boolean;
  businessCode?: number;
  seed?: number;
}

const QUERY_KEYS = ['__code', '__example', '__dynamic', '__business_code', '__seed'] as const;

function int(text: string | undefined): number | undefined {
  if (text === undefined || !/^-?\d{1,9}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

function apply(s: Scenario, name: string, value: string | undefined): void {
  switch (name) {
    case 'code':
      if (value !== undefined && /^\d{3}$/.test(value.trim())) s.code = Number(value.trim());
      else s.badCode = value ?? '';
      break;
    case 'example':
      if (value) s.example = value;
      break;
    case 'dynamic':
      s.dynamic = value === undefined || value === '' || value === 'true' || value === '1';
      break;
    case 'business-code':
    case 'business_code':
      if (int(value) !== undefined) s.businessCode = int(value);
      break;
    case 'seed':
      if (int(value) !== undefined) s.seed = int(value);
      break;
  }
}

/** Reads the scenario of a request (and strips the query switches); undefined when none. */
export function readScenario(
  prefer: string | string[] | undefined,
  query: Record<string, unknown> | undefined,
): Scenario | undefined {
  let s: Scenario | undefined;
  if (query) {
    for (const key of QUERY_KEYS) {
      if (query[key] === undefined) continue;
      s ??= {};
      apply(s, key.slice(2), text(query[key]));
      delete query[key];
    }
  }
  const header = Array.isArray(prefer) ? prefer.join(',') : prefer;
  if (header) {
    for (const part of header.split(/[,;]/)) {
      const eq = part.indexOf('=');
      const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
      const value =
        eq < 0
          ? undefined
          : part
              .slice(eq + 1)
              .trim()
              .replace(/^"(.*)"$/, '$1');
      if (!name) continue;
      s ??= {};
      apply(s, name, value);
    }
  }
  return s;
}
