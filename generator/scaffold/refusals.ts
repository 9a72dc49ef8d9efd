/**
 * What a scaffolded operation must not clash with in the description, checked before anything is
 * built: its route (path and method, or a path template that differs only in parameter names),
 * its category (a root tag), its business-code group, its operationId (and its preview's), and
 * its parameters and body fields. Every refusal is a ScaffoldError the user can act on.
 */
import { toIdentifier } from '../../model/identifiers.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { didYouMean } from '../../model/suggest.ts';
import { METHODS } from '../normalise/index.ts';
import { ScaffoldError, type FieldSpec, type ScaffoldRequest } from './request.ts';

/** An operation the description already has. */
export interface ExistingOperation {
  path: string;
  method: string;
  raw: Obj;
}

export function existingOperations(doc: Obj): ExistingOperation[] {
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  const out: ExistingOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS)
      if (isObject(item[method])) out.push({ path, method, raw: item[method] });
  }
  return out;
}

const template = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/** The operation's path (and its /demo path) must be new routes. */
export function refuseRouteClash(
  doc: Obj,
  existing: ExistingOperation[],
  req: ScaffoldRequest,
): void {
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  for (const wanted of req.preview ? [req.path, `${req.path}/demo`] : [req.path]) {
    if (existing.some((e) => e.path === wanted && e.method === req.method)) {
      throw new ScaffoldError(
        `${req.method.toUpperCase()} ${wanted} already exists in the description; choose another path or method`,
      );
    }
    // /a/{x} and /a/{y} are the same route to a server: OpenAPI forbids both.
    const twin = Object.keys(paths).find((p) => p !== wanted && template(p) === template(wanted));
    if (twin !== undefined) {
      throw new ScaffoldError(
        `${wanted} is the same route as the existing path ${twin} (only the parameter names differ); use ${twin}`,
      );
    }
  }
}

/** The category must be one of the root tags. */
export function refuseUnknownCategory(doc: Obj, category: string): void {
  const tags = (Array.isArray(doc['tags']) ? doc['tags'] : [])
    .filter(isObject)
    .map((t) => t['name'])
    .filter((n): n is string => typeof n === 'string');
  if (tags.includes(category)) return;
  throw new ScaffoldError(
    `unknown category ${JSON.stringify(category)}${didYouMean(category, tags)}. A category is one of the root tags: ${tags.map((t) => JSON.stringify(t)).join(', ') || 'none declared'}`,
  );
}

/**
 * The business-code group (`--codes`, else `base` when declared) and its success code; none for
 * a plain JSON operation.
 */
export function codeGroupFor(
  doc: Obj,
  req: ScaffoldRequest,
): { codes: string | undefined; success: number } {
  const groups = isObject(doc['x-dataapi-business-code-groups'])
    ? doc['x-dataapi-business-code-groups']
    : {};
  if (req.envelope === 'none') {
    if (req.codes !== undefined)
      throw new ScaffoldError(
        '--codes needs an envelope: a plain JSON operation (--envelope none) carries no business status code',
      );
    return { codes: undefined, success: 100 };
  }
  const codes = req.codes ?? ('base' in groups ? 'base' : undefined);
  const declared = Object.keys(groups).join(', ') || 'none';
  if (codes === undefined)
    throw new ScaffoldError(`name the business code group with --codes (declared: ${declared})`);
  if (!(codes in groups))
    throw new ScaffoldError(
      `unknown business code group ${JSON.stringify(codes)}; declared in x-dataapi-business-code-groups: ${declared}`,
    );
  const group = groups[codes];
  const success = isObject(group) && typeof group['success'] === 'number' ? group['success'] : 100;
  return { codes, success };
}

/** The operationId (`--id`, else from method and path), usable as is and not taken. */
export function operationIdFor(existing: ExistingOperation[], req: ScaffoldRequest): string {
  const id =
    req.id ??
    toIdentifier(`${req.method} ${req.path.replace(/\{([^}]*)\}/g, ' by $1 ')}`, 'operation');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(id) || toIdentifier(id) !== id) {
    throw new ScaffoldError(
      `--id ${JSON.stringify(id)} is not usable as is in generated code: use a camelCase identifier such as ${toIdentifier(id)}`,
    );
  }
  const taken = new Map(
    existing
      .map((e) => e.raw['operationId'])
      .filter((v): v is string => typeof v === 'string')
      .map((v) => [v.toLowerCase(), v]),
  );
  // Generated code also names the preview `<id>Preview`; names are compared case-insensitively
  // because generated file names are.
  for (const name of [id, ...(req.preview ? [`${id}Demo`, `${id}Preview`] : [])]) {
    const clash = taken.get(name.toLowerCase());
    if (clash !== undefined)
      throw new ScaffoldError(
        `the operationId ${name} clashes with the existing operationId ${clash}; choose another with --id`,
      );
  }
  return id;
}

/**
 * The parameters: the path's own first (always required, typed string unless given), then the
 * query parameters; each name once, never the key. Body fields: each once, not on GET/DELETE.
 */
export function checkedFields(req: ScaffoldRequest, pathNames: string[]): FieldSpec[] {
  for (const p of pathNames) {
    const given = req.params.find((f) => f.name === p);
    if (given && !given.required) given.required = true; // path parameters are always required
  }
  const params: FieldSpec[] = [
    ...pathNames.map(
      (name) =>
        req.params.find((f) => f.name === name) ?? {
          name,
          type: 'string' as const,
          required: true,
        },
    ),
    ...req.params.filter((f) => !pathNames.includes(f.name)),
  ];
  refuseTwice(params, '--param');
  if (params.some((f) => f.name.toLowerCase() === 'appkey'))
    throw new ScaffoldError('appkey is the key transport of the security scheme, not a --param');
  refuseTwice(req.bodyFields, '--body-field');
  if (req.bodyFields.length > 0 && (req.method === 'get' || req.method === 'delete')) {
    throw new ScaffoldError(
      `a ${req.method.toUpperCase()} operation takes no request body; drop --body-field or use --method post`,
    );
  }
  return params;
}

function refuseTwice(fields: FieldSpec[], flag: string): void {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) throw new ScaffoldError(`${flag} ${f.name} is given twice`);
    seen.add(f.name);
  }
}
