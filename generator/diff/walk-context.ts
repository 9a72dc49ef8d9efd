/** Where a comparison stands: the pointer on each side, a readable path, and how to report. */
import type { RuleId } from './rules.ts';
import type { Side } from './types.ts';
import { escapeToken } from '../../model/pointer.ts';
import type { SchemaSpace } from './canon.ts';

export type Direction = 'request' | 'response';

export interface Where {
  /** JSON pointer on each side (undefined where that side has nothing). */
  base?: string;
  head?: string;
  /** Readable path for messages, e.g. `200 response body › Data[] › AQI`. */
  label: string;
}

export type Emit = (rule: RuleId, side: Side, pointer: string | undefined, message: string) => void;

export interface SchemaContext {
  dir: Direction;
  base: SchemaSpace;
  head: SchemaSpace;
  dirty: Set<string>;
  emit: Emit;
  /** Pairs of schemas already compared in this operation and direction. */
  seen: Set<string>;
  /** Compares two sub-schemas (schemas.ts compareSchemas; passed in to keep the modules acyclic). */
  compare(b: unknown, h: unknown, where: Where, ctx: SchemaContext): void;
}

export function child(where: Where, tokens: string[], label: string): Where {
  const tail = tokens.map((t) => '/' + escapeToken(t)).join('');
  return {
    ...(where.base !== undefined ? { base: where.base + tail } : {}),
    ...(where.head !== undefined ? { head: where.head + tail } : {}),
    label,
  };
}

/** Appends a property name or `[]` to a readable path. */
export const step = (label: string, name: string) =>
  name === '[]' ? `${label}[]` : `${label} › ${name}`;
