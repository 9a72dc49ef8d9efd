/**
 * The catalogue's own rules, on top of OpenAPI validity: categories, envelopes, business code
 * groups, rate limits, preview variants, operationIds and the error responses of docs/service.md §4.
 * They read the IR (what the generator will do) and the bundled document (what the author wrote:
 * an inferred envelope is fine for the generator, but the catalogue wants it declared).
 */
import type { Operation } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { METHODS } from '../normalise/index.ts';
import { isObject, type Obj } from '../../model/object.ts';
import { escapeToken, joinPointer } from '../../model/pointer.ts';
import { getAt } from '../../model/refs.ts';
import { didYouMean } from '../../model/suggest.ts';
import { ExampleRules } from './examples.ts';
import { ERROR_STATUSES, type Add } from './types.ts';

export interface RawOperation {
  method: string;
  path: string;
  pointer: string;
  raw: Obj;
  name: string;
}

/** Every operation object of the document, including the /demo variants the IR folds away. */
export function rawOperations(doc: Obj): RawOperation[] {
  const out: RawOperation[] = [];
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  for (const path of Object.keys(paths)) {
    const item = paths[path];
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const id = typeof raw['operationId'] === 'string' ? raw['operationId'] : undefined;
      out.push({
        method,
        path,
        pointer: joinPointer('paths', path, method),
        raw,
        name: id ?? `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return out;
}

/** Rules that need only the parsed text (they must run even when the validator rejects it). */
export function checkOperationIds(doc: Obj, add: Add): void {
  const byId = new Map<string, RawOperation[]>();
  for (const op of rawOperations(doc)) {
    const id = op.raw['operationId'];
    if (typeof id !== 'string') {
      add({
        code: 'operation-id-missing',
        pointer: `${op.pointer}/operationId`,
        operation: op.name,
        message:
          'no operationId: generated code names it from its method and path, which changes when the path does',
      });
      continue;
    }
    byId.set(id, [...(byId.get(id) ?? []), op]);
  }
  for (const [id, ops] of byId) {
    if (ops.length < 2) continue;
    for (const op of ops.slice(1)) {
      add({
        code: 'operation-id-unique',
        pointer: `${op.pointer}/operationId`,
        operation: op.name,
        message: `operationId ${JSON.stringify(id)} is also used by ${ops[0]!.method.toUpperCase()} ${ops[0]!.path}`,
      });
    }
  }
}

/** Rules on the IR and the bundled document. */
export function checkCatalogue(doc: Obj, model: ServiceModel, add: Add): void {
  const tags = new Set(
    (Array.isArray(doc['tags']) ? doc['tags'] : [])
      .filter(isObject)
      .map((t) => t['name'])
      .filter((n): n is string => typeof n === 'string'),
  );
  const rootRate = doc['x-dataapi-rate-limit'] !== undefined;
  // The service's own rules (categories, envelopes, business codes, rate limits, its error table,
  // previews, an example everywhere) bind descriptions written in its conventions only; any other
  // gets the generic ones (operation ids, examples that validate, extensions well formed).
  const service = usesServiceConventions(doc, model);
  const examples = new ExampleRules(
    doc,
    model,
    service ? add : withoutRule('example-missing', add),
  );
  const all = rawOperations(doc);
  const previewPointers = new Set<string>();

  for (const op of model.operations) {
    const raw = getAt(doc, op.pointer);
    if (!isObject(raw)) continue;
    const name = op.operationId ?? `${op.method.toUpperCase()} ${op.path}`;
    if (service)
      checkCommon({ method: op.method, path: op.path, pointer: op.pointer, raw, name }, tags, add);

    if (op.operationId !== undefined && op.id !== op.operationId) {
      add({
        code: 'operation-id-safe',
        pointer: `${op.pointer}/operationId`,
        operation: name,
        message: `generated code calls it ${op.id} (the operationId is not a safe, unique identifier)`,
      });
    }
    if (service) {
      checkExtensions(op, raw, name, { model, rootRate }, add);
      checkPreview(doc, op, raw, name, add, previewPointers);
    }
    examples.check(op, name);
  }

  if (service) checkDemoPaths(all, model, previewPointers, tags, add);
}

/**
 * Whether a description is written in the service's conventions: an `x-dataapi-` extension at its
 * root or on an operation, or an operation answering in one of the service's envelopes.
 */
export function usesServiceConventions(doc: Obj, model: ServiceModel): boolean {
  const marked = (o: unknown) =>
    isObject(o) && Object.keys(o).some((k) => k.startsWith('x-dataapi-'));
  return (
    marked(doc) ||
    model.operations.some((op) => op.envelope !== undefined || marked(getAt(doc, op.pointer)))
  );
}

/** `add` without one rule's findings. */
const withoutRule =
  (rule: string, add: Add): Add =>
  (f, options) => {
    if (f.code !== rule) add(f, options);
  };

/** The service's extensions an operation declares: envelope, business-code group, rate limit. */
function checkExtensions(
  op: Operation,
  raw: Obj,
  name: string,
  ctx: { model: ServiceModel; rootRate: boolean },
  add: Add,
): void {
  const { model, rootRate } = ctx;
  const declared = raw['x-dataapi-envelope'];
  if (declared === undefined) {
    add({
      code: 'operation-envelope',
      pointer: `${op.pointer}/x-dataapi-envelope`,
      operation: name,
      message: op.envelope
        ? `no x-dataapi-envelope (the generator infers ${op.envelope.spelling} from the 200 schema): declare x-dataapi-envelope: ${op.envelope.spelling}`
        : 'no x-dataapi-envelope: declare capitalised, lowerCamel, or none for a plain JSON operation',
    });
  }
  const group = raw['x-dataapi-business-codes'];
  if (op.envelope && group === undefined) {
    add({
      code: 'business-code-group',
      pointer: `${op.pointer}/x-dataapi-business-codes`,
      operation: name,
      message: `an enveloped operation names its business code group (declared: ${model.businessCodeGroups.map((g) => g.name).join(', ') || 'none; declare x-dataapi-business-code-groups at the root'})`,
    });
  } else if (!op.envelope && group !== undefined) {
    add(
      {
        code: 'business-code-group',
        pointer: `${op.pointer}/x-dataapi-business-codes`,
        operation: name,
        message:
          'a plain JSON operation (no envelope) carries no business status code; the group is ignored',
      },
      { milder: true },
    );
  }
  if (raw['x-dataapi-rate-limit'] === undefined && !rootRate) {
    add({
      code: 'rate-limit',
      pointer: `${op.pointer}/x-dataapi-rate-limit`,
      operation: name,
      message:
        'no rate limit: declare x-dataapi-rate-limit { limit, per } here or a default at the root',
    });
  }
}

/** The explicit /demo variants (folded into their operation by the IR) and stray /demo paths. */
function checkDemoPaths(
  all: RawOperation[],
  model: ServiceModel,
  previewPointers: Set<string>,
  tags: Set<string>,
  add: Add,
): void {
  for (const r of all) {
    if (!previewPointers.has(r.pointer)) continue;
    checkCommon(r, tags, add);
  }
  for (const r of all) {
    if (previewPointers.has(r.pointer) || !r.path.endsWith('/demo')) continue;
    if (model.operations.some((o) => o.pointer === r.pointer && o.preview)) continue;
    const base = model.operations.find((o) => o.method === r.method && `${o.path}/demo` === r.path);
    if (!base) continue;
    add({
      code: 'preview-variant',
      pointer: r.pointer,
      operation: r.name,
      message: `looks like the preview variant of ${base.operationId ?? base.id} but is not paired with it: add x-dataapi-preview-of: ${base.operationId ?? base.id} here and x-dataapi-preview: true there`,
    });
  }
}

/** Rules every operation object obeys, preview variants included. */
function checkCommon(r: RawOperation, tags: Set<string>, add: Add): void {
  const opTags = r.raw['tags'];
  const first = Array.isArray(opTags) ? opTags[0] : undefined;
  if (typeof first !== 'string') {
    add({
      code: 'operation-category',
      pointer: `${r.pointer}/tags`,
      operation: r.name,
      message: `no category: add tags with one of the root tags (${[...tags].slice(0, 3).join('; ')}${tags.size > 3 ? '; ...' : ''})`,
    });
  } else if (!tags.has(first)) {
    add({
      code: 'operation-category',
      pointer: `${r.pointer}/tags/0`,
      operation: r.name,
      message: `category ${JSON.stringify(first)} is not one of the root tags${didYouMean(first, [...tags])}`,
    });
  }
  const responses = isObject(r.raw['responses']) ? r.raw['responses'] : {};
  const declared = new Set(Object.keys(responses).map((s) => s.toUpperCase()));
  const missing = ERROR_STATUSES.filter((s) => !declared.has(s));
  const byRange = missing.filter((s) => declared.has(`${s[0]}XX`) || declared.has('DEFAULT'));
  const absent = missing.filter((s) => !byRange.includes(s));
  if (absent.length > 0) {
    add({
      code: 'error-responses',
      pointer: `${r.pointer}/responses`,
      operation: r.name,
      message: `error responses of the service (docs/service.md §4) not declared: ${absent.join(', ')}`,
    });
  }
  if (byRange.length > 0) {
    add(
      {
        code: 'error-responses',
        pointer: `${r.pointer}/responses`,
        operation: r.name,
        message: `declared only by a range or default response: ${byRange.join(', ')}; declare each status of docs/service.md §4`,
      },
      { milder: true },
    );
  }
}

function checkPreview(
  doc: Obj,
  op: Operation,
  raw: Obj,
  name: string,
  add: Add,
  previewPointers: Set<string>,
): void {
  if (raw['x-dataapi-preview'] === undefined && !op.preview) {
    add({
      code: 'preview-declared',
      pointer: `${op.pointer}/x-dataapi-preview`,
      operation: name,
      message:
        'say whether the operation is detailed: x-dataapi-preview: true (with its /demo variant) or false',
    });
  }
  if (!op.preview) return;
  if (!op.preview.explicit) {
    add(
      {
        code: 'preview-variant',
        pointer: `${op.pointer}/x-dataapi-preview`,
        operation: name,
        message: `the preview variant ${op.method.toUpperCase()} ${op.preview.path} is only implied: list it under paths with x-dataapi-preview-of: ${op.operationId ?? op.id}, security: [] and its own examples (dataapi scaffold does)`,
      },
      { milder: true },
    );
    return;
  }
  const pointer = joinPointer('paths', op.preview.path, op.method);
  previewPointers.add(pointer);
  const demo = getAt(doc, pointer);
  const demoName = op.preview.operationId ?? `${op.method.toUpperCase()} ${op.preview.path}`;
  if (isObject(demo)) checkDemo(doc, { raw, name }, { demo, pointer, name: demoName }, add);
}

/** An explicit /demo variant answers like its operation, and without a key. */
function checkDemo(
  doc: Obj,
  base: { raw: Obj; name: string },
  variant: { demo: Obj; pointer: string; name: string },
  add: Add,
): void {
  const { raw, name } = base;
  const { demo, pointer, name: demoName } = variant;
  const security = demo['security'] ?? doc['security'];
  const keyless =
    !Array.isArray(security) ||
    security.length === 0 ||
    security.some((s) => isObject(s) && Object.keys(s).length === 0);
  if (!keyless) {
    add({
      code: 'preview-consistent',
      pointer: `${pointer}/security`,
      operation: demoName,
      message: 'a preview variant is called without a key: add security: []',
    });
  }
  for (const ext of ['x-dataapi-envelope', 'x-dataapi-business-codes']) {
    if (JSON.stringify(demo[ext]) !== JSON.stringify(raw[ext])) {
      add({
        code: 'preview-consistent',
        pointer: `${pointer}/${escapeToken(ext)}`,
        operation: demoName,
        message: `${ext} is ${JSON.stringify(demo[ext] ?? null)} here but ${JSON.stringify(raw[ext] ?? null)} on ${name}: a preview answers like its operation`,
      });
    }
  }
  const statuses = (o: Obj) =>
    Object.keys(isObject(o['responses']) ? o['responses'] : {})
      .sort()
      .join(',');
  if (statuses(demo) !== statuses(raw)) {
    add(
      {
        code: 'preview-consistent',
        pointer: `${pointer}/responses`,
        operation: demoName,
        message: `declares the statuses ${statuses(demo)} but ${name} declares ${statuses(raw)}`,
      },
      { milder: true },
    );
  }
}
