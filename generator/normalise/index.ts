/**
 * Normalise: the bundled document -> the ServiceModel (IR). See model/types.ts.
 * Extension misuse is reported with pointers and lines, all problems at once.
 */
import type { LoadedSpec } from '../load.ts';
import type {
  AsyncLink,
  Category,
  HttpMethod,
  JsonSchema,
  Operation,
  RateLimit,
  ServiceModel,
} from '../../model/types.ts';
import { readAuth } from './auth.ts';
import { readCodeGroups } from './codes.ts';
import { detectEnvelope } from './envelope.ts';
import { NameAllocator, toFileStem, toIdentifier } from '../../model/identifiers.ts';
import { readBody, readParameters, readResponses } from './parts.ts';
import { Problems } from './problems.ts';
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { joinPointer } from '../../model/pointer.ts';
import { SchemaConverter } from './schema.ts';

export const METHODS: HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];
const SAFE_METHODS = new Set<HttpMethod>(['get', 'head', 'options', 'trace']);
const WINDOW_MS = { second: 1000, minute: 60_000, hour: 3_600_000 } as const;

function readRateLimit(
  value: unknown,
  pointer: string,
  problems: Problems,
  source: RateLimit['source'],
): RateLimit | undefined {
  if (value === undefined) return undefined;
  const per = isObject(value) ? value['per'] : undefined;
  const limit = isObject(value) ? value['limit'] : undefined;
  if (
    !Number.isInteger(limit) ||
    (limit as number) < 1 ||
    (per !== 'second' && per !== 'minute' && per !== 'hour')
  ) {
    problems.add(pointer, 'must be { limit: <positive integer>, per: second | minute | hour }');
    return undefined;
  }
  return { limit: limit as number, per, windowMs: WINDOW_MS[per], source };
}

function versionOf(path: string): { version?: string } {
  const marker = /\/(v\d+)(?=\/|$)/.exec(path)?.[1];
  return marker ? { version: marker } : {};
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
}

interface Draft {
  op: Operation;
  raw: Obj;
  previewOf?: string;
  asyncRaw?: unknown;
}

export function normalise(spec: Pick<LoadedSpec, 'file' | 'locate' | 'document'>): ServiceModel {
  const doc = spec.document;
  const problems = new Problems(spec);
  const is30 = String(doc['openapi']).startsWith('3.0');
  const conv = new SchemaConverter(doc, is30);
  const groups = readCodeGroups(doc, problems);
  const defaultRateLimit = readRateLimit(
    doc['x-dataapi-rate-limit'],
    '/x-dataapi-rate-limit',
    problems,
    'default',
  ) ?? {
    limit: 5,
    per: 'second' as const,
    windowMs: 1000,
    source: 'default' as const,
  };
  const drafts: Draft[] = [];
  const paths = isObject(doc['paths']) ? doc['paths'] : {};

  for (const path of Object.keys(paths).sort()) {
    const pathItem = paths[path];
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const raw = pathItem[method];
      if (!isObject(raw)) continue;
      const pointer = joinPointer('paths', path, method);
      const operationId = typeof raw['operationId'] === 'string' ? raw['operationId'] : undefined;
      // Placeholder: ids are allocated once previews are folded (see allocateIds).
      const id = '';
      const parameters = readParameters(doc, pathItem, raw, conv);
      const { responses, raw: rawSchemas } = readResponses(doc, raw, conv);
      const success = responses.find((r) => /^2\d\d$/.test(r.status));
      const { envelope, payloadSchema } = detectEnvelope(
        doc,
        raw,
        pointer,
        success ? rawSchemas.get(success.status) : undefined,
        problems,
      );
      const requireAnyOf = readRequireAnyOf(
        raw,
        pointer,
        parameters.map((p) => p.name),
        problems,
      );
      const groupName = raw['x-dataapi-business-codes'];
      if (groupName !== undefined && !groups.some((g) => g.name === groupName)) {
        problems.add(
          `${pointer}/x-dataapi-business-codes`,
          `unknown business code group ${JSON.stringify(groupName)} (declared: ${groups.map((g) => g.name).join(', ') || 'none'})`,
        );
      }
      const tags = stringList(raw['tags']);
      const body = readBody(doc, raw, conv);
      const writes =
        typeof raw['x-dataapi-writes'] === 'boolean'
          ? raw['x-dataapi-writes']
          : !SAFE_METHODS.has(method);
      const op: Operation = {
        id,
        ...(operationId !== undefined ? { operationId } : {}),
        method,
        path,
        pointer,
        ...(typeof raw['summary'] === 'string' ? { summary: raw['summary'] } : {}),
        ...(typeof raw['description'] === 'string' ? { description: raw['description'] } : {}),
        category: tags[0] ?? 'default',
        deprecated: raw['deprecated'] === true,
        ...versionOf(path),
        parameters,
        requireAnyOf,
        querySchema: querySchema(
          parameters.filter((p) => p.in === 'query'),
          requireAnyOf,
        ),
        ...(body ? { body } : {}),
        responses,
        ...(success ? { success } : {}),
        ...(envelope ? { envelope, payloadSchema: conv.convert(payloadSchema) } : {}),
        auth: readAuth(doc, raw, pointer, problems),
        ...(typeof groupName === 'string' && groups.some((g) => g.name === groupName)
          ? { businessCodes: groupName }
          : {}),
        rateLimit:
          readRateLimit(
            raw['x-dataapi-rate-limit'],
            `${pointer}/x-dataapi-rate-limit`,
            problems,
            'operation',
          ) ?? defaultRateLimit,
        streaming: success?.kind === 'sse' || raw['x-dataapi-stream'] === 'sse',
        writes,
        assumed: stringList(raw['x-dataapi-assumed']),
        notShown: stringList(raw['x-dataapi-not-shown']),
      };
      if (raw['x-dataapi-preview'] === true)
        op.preview = { path: `${path}/demo`, id: '', explicit: false };
      const previewOf = raw['x-dataapi-preview-of'];
      drafts.push({
        op,
        raw,
        ...(typeof previewOf === 'string' ? { previewOf } : {}),
        asyncRaw: raw['x-dataapi-async'],
      });
    }
  }

  const operations = pairPreviews(drafts, problems);
  allocateIds(operations);
  linkAsync(
    drafts.filter((d) => operations.includes(d.op)),
    operations,
    problems,
  );
  problems.throwIfAny();

  return {
    title:
      isObject(doc['info']) && typeof doc['info']['title'] === 'string'
        ? doc['info']['title']
        : 'API',
    version: isObject(doc['info']) ? String(doc['info']['version'] ?? '') : '',
    ...(isObject(doc['info']) && typeof doc['info']['description'] === 'string'
      ? { description: doc['info']['description'] }
      : {}),
    openapi: String(doc['openapi']),
    servers: readServers(doc),
    categories: readCategories(doc, operations),
    operations,
    businessCodeGroups: groups,
    defaultRateLimit,
    schemaRoot: conv.root(),
  };
}

/** Folds `/demo` operations into their base operation's preview variant (both spellings agree). */
function pairPreviews(drafts: Draft[], problems: Problems): Operation[] {
  const byOperationId = new Map(
    drafts.filter((d) => d.op.operationId).map((d) => [d.op.operationId as string, d]),
  );
  const folded = new Set<Draft>();
  for (const d of drafts) {
    let base = d.previewOf !== undefined ? byOperationId.get(d.previewOf) : undefined;
    if (d.previewOf !== undefined && !base) {
      problems.add(
        `${d.op.pointer}/x-dataapi-preview-of`,
        `no operation has operationId ${JSON.stringify(d.previewOf)}`,
      );
      continue;
    }
    // An unmarked `/demo` path pairs with a base operation that says it has a preview.
    base ??= d.op.path.endsWith('/demo')
      ? drafts.find(
          (b) =>
            b !== d &&
            b.raw['x-dataapi-preview'] === true &&
            b.op.method === d.op.method &&
            `${b.op.path}/demo` === d.op.path,
        )
      : undefined;
    if (!base) continue;
    if (base.op.method !== d.op.method || `${base.op.path}/demo` !== d.op.path) {
      problems.add(
        d.op.pointer,
        `a preview variant must be ${base.op.method.toUpperCase()} ${base.op.path}/demo`,
      );
      continue;
    }
    base.op.preview = {
      path: d.op.path,
      id: '',
      explicit: true,
      ...(d.op.operationId ? { operationId: d.op.operationId } : {}),
    };
    folded.add(d);
  }
  return drafts.filter((d) => !folded.has(d)).map((d) => d.op);
}

/**
 * Gives every operation (and preview variant) a unique, safe identifier. An operationId that is
 * already a safe identifier keeps it whatever the order; the others are sanitised (or, without
 * an operationId, synthesised from method and path) and numbered on a clash.
 */
function allocateIds(operations: Operation[]): void {
  const ids = new NameAllocator();
  const exact = (op: Operation) =>
    op.operationId !== undefined && toIdentifier(op.operationId) === op.operationId;
  for (const op of operations) if (exact(op)) op.id = ids.take(op.operationId as string);
  for (const op of operations) {
    if (exact(op)) continue;
    const text = op.operationId ?? `${op.method} ${op.path.replace(/\{([^}]*)\}/g, ' by $1 ')}`;
    op.id = ids.take(toIdentifier(text, 'operation'));
  }
  for (const op of operations) if (op.preview) op.preview.id = ids.take(`${op.id}Preview`);
}

function linkAsync(drafts: Draft[], operations: Operation[], problems: Problems): void {
  for (const d of drafts) {
    if (d.asyncRaw === undefined) continue;
    const at = `${d.op.pointer}/x-dataapi-async`;
    const a = d.asyncRaw;
    const partner = isObject(a)
      ? operations.find((o) => o.operationId === a['partner'])
      : undefined;
    if (!isObject(a) || (a['role'] !== 'submit' && a['role'] !== 'status') || !partner) {
      problems.add(
        at,
        'must be { role: submit | status, partner: <operationId of the paired operation> }',
      );
      continue;
    }
    const field = (key: string, fallback: string) =>
      typeof a[key] === 'string' ? (a[key] as string) : fallback;
    const link: AsyncLink = {
      role: a['role'],
      partner: partner.id,
      operationIdField: field('operationIdField', 'operationId'),
      statusField: field('statusField', 'status'),
      pollingUrlField: field('pollingUrlField', 'pollingUrl'),
    };
    d.op.async = link;
  }
}

function readRequireAnyOf(
  raw: Obj,
  pointer: string,
  names: string[],
  problems: Problems,
): string[][] {
  const value = raw['x-dataapi-require-any-of'];
  if (value === undefined) return [];
  const ok =
    Array.isArray(value) &&
    value.every(
      (g) =>
        Array.isArray(g) &&
        g.length > 0 &&
        g.every((n) => typeof n === 'string' && names.includes(n)),
    );
  if (!ok) {
    problems.add(
      `${pointer}/x-dataapi-require-any-of`,
      'must be a list of groups of declared parameter names, e.g. [[location, city]]',
    );
    return [];
  }
  return value as string[][];
}

function querySchema(params: Operation['parameters'], requireAnyOf: string[][]): JsonSchema {
  const properties: Obj = {};
  for (const p of params) setOwn(properties, p.name, p.schema);
  const schema: Obj = { type: 'object', properties };
  const required = params.filter((p) => p.required).map((p) => p.name);
  if (required.length > 0) schema['required'] = required;
  const anyOf = requireAnyOf.map((group) => ({
    anyOf: group.map((name) => ({ required: [name] })),
  }));
  if (anyOf.length === 1) Object.assign(schema, anyOf[0]);
  else if (anyOf.length > 1) schema['allOf'] = anyOf;
  return schema;
}

function readServers(doc: Obj): ServiceModel['servers'] {
  const servers = Array.isArray(doc['servers']) ? doc['servers'] : [];
  return servers.filter(isObject).map((s) => {
    const variables: ServiceModel['servers'][number]['variables'] = {};
    if (isObject(s['variables'])) {
      for (const [name, v] of Object.entries(s['variables'])) {
        if (isObject(v))
          setOwn(variables, name, {
            default: String(v['default'] ?? ''),
            ...(typeof v['description'] === 'string' ? { description: v['description'] } : {}),
          });
      }
    }
    return { url: String(s['url'] ?? '/'), variables };
  });
}

function readCategories(doc: Obj, operations: Operation[]): Category[] {
  const declared = Array.isArray(doc['tags']) ? doc['tags'].filter(isObject) : [];
  const names = [...declared.map((t) => String(t['name'])), ...operations.map((o) => o.category)];
  const stems = new NameAllocator();
  const seen = new Set<string>();
  const out: Category[] = [];
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const tag = declared.find((t) => t['name'] === name);
    out.push({
      name,
      ...(typeof tag?.['description'] === 'string' ? { description: tag['description'] } : {}),
      identifier: stems.take(toFileStem(name, 'default')),
      operations: operations.filter((o) => o.category === name).map((o) => o.id),
    });
  }
  return out;
}
