/**
 * What `dataapi scaffold operation` is asked to add, parsed and checked on its own (syntax only;
 * checks against the description are in refusals.ts). Every refusal is a ScaffoldError with a message
 * the user can act on, raised before anything is written.
 */
import type { HttpMethod } from '../../model/types.ts';

export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

export type FieldType = 'string' | 'integer' | 'number' | 'boolean';
export type EnvelopeChoice = 'capitalised' | 'lowerCamel' | 'none';

export interface FieldSpec {
  name: string;
  type: FieldType;
  required: boolean;
}

export interface ScaffoldRequest {
  method: HttpMethod;
  path: string;
  category: string;
  id?: string;
  summary?: string;
  envelope: EnvelopeChoice;
  codes?: string;
  params: FieldSpec[];
  bodyFields: FieldSpec[];
  preview: boolean;
  rateLimit?: { limit: number; per: 'second' | 'minute' | 'hour' };
  writes: boolean;
}

export const SCAFFOLD_METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const TYPES: Record<string, FieldType> = {
  string: 'string',
  str: 'string',
  integer: 'integer',
  int: 'integer',
  number: 'number',
  float: 'number',
  boolean: 'boolean',
  bool: 'boolean',
};

/** `name:type[:required]`, e.g. `city:string:required`, `days:integer`. */
export function parseField(text: string, flag: string): FieldSpec {
  const parts = text.split(':');
  const [name = '', type = '', flagWord, ...rest] = parts;
  const fieldType = TYPES[type.toLowerCase()];
  const problem = !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)
    ? `the name ${JSON.stringify(name)} is not a parameter name (letters, digits, _ . -; not starting with a digit)`
    : fieldType === undefined
      ? `the type ${JSON.stringify(type)} is not one of string, integer, number, boolean`
      : flagWord !== undefined && flagWord !== 'required' && flagWord !== 'optional'
        ? `the third part must be "required" or "optional", not ${JSON.stringify(flagWord)}`
        : rest.length > 0
          ? 'too many ":"-separated parts'
          : undefined;
  if (problem !== undefined || fieldType === undefined) {
    throw new ScaffoldError(
      `bad ${flag} ${JSON.stringify(text)}: ${problem ?? 'invalid'}. Expected name:type[:required], e.g. ${flag} city:string:required`,
    );
  }
  return { name, type: fieldType, required: flagWord === 'required' };
}

/** `5/s`, `100/minute`, `10/h`. */
export function parseRateLimit(text: string): NonNullable<ScaffoldRequest['rateLimit']> {
  const m = /^\s*(\d+)\s*\/\s*(s|sec|second|m|min|minute|h|hour)\s*$/i.exec(text);
  const limit = m ? Number(m[1]) : NaN;
  if (!m || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ScaffoldError(
      `bad --rate-limit ${JSON.stringify(text)}: expected <positive integer>/<s|minute|hour>, e.g. 5/s or 100/minute`,
    );
  }
  const unit = m[2]!.toLowerCase();
  return { limit, per: unit.startsWith('h') ? 'hour' : unit.startsWith('m') ? 'minute' : 'second' };
}

const SEGMENT = /^(?:[A-Za-z0-9._~!$&'()*+,;=:@-]+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;

/** The `{name}`s of a path template; refuses anything that is not one. */
export function pathParameters(path: string): string[] {
  const bad = (why: string) =>
    new ScaffoldError(
      `invalid path template ${JSON.stringify(path)}: ${why}. Example: /weather/forecast or /items/{item_id}`,
    );
  if (!path.startsWith('/')) throw bad('it must start with /');
  if (path === '/') throw bad('the root path cannot carry an operation with a /demo variant');
  if (path.endsWith('/')) throw bad('it must not end with /');
  const names: string[] = [];
  for (const segment of path.slice(1).split('/')) {
    if (segment === '') throw bad('it has an empty segment (//)');
    if (!SEGMENT.test(segment))
      throw bad(
        `the segment ${JSON.stringify(segment)} is neither literal text nor one whole {parameter}`,
      );
    if (segment.startsWith('{')) {
      const name = segment.slice(1, -1);
      if (names.includes(name)) throw bad(`the parameter {${name}} appears twice`);
      names.push(name);
    }
  }
  if (path.endsWith('/demo'))
    throw bad('a path ending in /demo is a preview variant; scaffold the operation itself');
  return names;
}
