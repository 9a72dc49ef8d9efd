/**
 * Normalise: the bundled document -> the ServiceModel (IR). See model/types.ts.
 * Misuse of the project's own `x-dataapi-*` extensions is reported with pointers and lines, all
 * problems at once, and stops the run; anything else a description gets wrong is a located
 * finding (ServiceModel.findings), repaired or ignored, never fatal.
 */
import type { LoadedSpec } from '../load.ts';
import type { AsyncLink, Category, HttpMethod, Operation } from '../../model/types.ts';
import type { ServiceModel } from '../../model/service-model.ts';
import { readCodeGroups } from './codes.ts';
import { Findings } from './findings.ts';
import { reportSelfComposedSchemas } from './self-composed.ts';
import { NameAllocator, toFileStem, toIdentifier } from '../../model/identifiers.ts';
import { readOperation, type Draft, type ReadContext } from './operation.ts';
import { DEFAULT_RATE_LIMIT, readRateLimit } from './rate-limits.ts';
import { readPathItems } from './paths.ts';
import { Problems, type Problem } from './problems.ts';
import { readDeprecations } from './lifecycle.ts';
import { isObject, setOwn, type Obj } from '../../model/object.ts';
import { reportSharedRoutes } from './shared-routes.ts';
import { reportQueryNameClashes } from './query-clashes.ts';
import { readPaging } from './paging.ts';
import { readLinks } from './links.ts';
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

export interface NormaliseOptions {
  /**
   * Told about the extension problems instead of throwing them: the model is still built, with
   * the faulty values left out (lint reports them beside its other findings).
   */
  onProblems?: (problems: Problem[]) => void;
}

export function normalise(
  spec: Pick<LoadedSpec, 'file' | 'locate' | 'document' | 'repairs' | 'trace'>,
  options: NormaliseOptions = {},
): ServiceModel {
  const doc = spec.document;
  const problems = new Problems(spec);
  const findings = new Findings(spec);
  for (const r of spec.repairs ?? []) findings.add(r.code, r.pointer, r.message, undefined, r);
  reportSelfComposedSchemas(doc, findings);
  const is30 = String(doc['openapi']).startsWith('3.0');
  const conv = new SchemaConverter(doc, is30, findings);
  const groups = readCodeGroups(doc, problems);
  const defaultRateLimit =
    readRateLimit(doc['x-dataapi-rate-limit'], '/x-dataapi-rate-limit', problems, 'default') ??
    DEFAULT_RATE_LIMIT;
  const context: ReadContext = { doc, conv, problems, findings, groups, defaultRateLimit };
  const drafts: Draft[] = [];
  const hooks: Draft[] = [];
  for (const entry of readPathItems(doc, findings)) {
    for (const method of METHODS) {
      const raw = entry.item[method];
      if (!isObject(raw)) continue;
      (entry.webhook ? hooks : drafts).push(readOperation(context, entry, method, raw));
    }
  }
  findings.operation = undefined;

  const operations = pairPreviews(drafts, problems);
  const webhooks = hooks.map((d) => d.op);
  allocateIds([...operations, ...webhooks]);
  const idOf = new Map([...operations, ...webhooks].map((o) => [o.pointer, o.id]));
  findings.renameOperations((pointer) => idOf.get(pointer));
  reportSharedRoutes(operations, findings);
  readDeprecations(
    drafts.filter((d) => operations.includes(d.op)),
    operations,
    problems,
  );
  linkAsync(
    drafts.filter((d) => operations.includes(d.op)),
    operations,
    problems,
  );
  if (options.onProblems && problems.list.length > 0) options.onProblems(problems.list);
  else problems.throwIfAny();
  readLinks(
    doc,
    drafts.filter((d) => operations.includes(d.op)),
    operations,
    findings,
  );
  const schemaRoot = conv.root();
  for (const op of operations) {
    const paging = readPaging({ schemaRoot }, op);
    if (paging) op.paging = paging;
    reportQueryNameClashes({ schemaRoot }, op, findings);
  }

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
    schemaRoot,
    webhooks,
    findings: findings.all(),
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
        'spec-extension',
        `${d.op.pointer}/x-dataapi-preview-of`,
        `no operation has operationId ${JSON.stringify(d.previewOf)}: x-dataapi-preview-of names the base operation of this preview; if that operation was renamed, update this x-dataapi-preview-of to its new operationId`,
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
        'spec-extension',
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
    const text = op.operationId ?? `${op.method} ${op.pathKey.replace(/\{([^}]*)\}/g, ' by $1 ')}`;
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
        'spec-extension',
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

function readServers(doc: Obj): ServiceModel['servers'] {
  const servers = Array.isArray(doc['servers']) ? doc['servers'] : [];
  return servers.filter(isObject).map((s) => {
    const variables: ServiceModel['servers'][number]['variables'] = {};
    if (isObject(s['variables'])) {
      for (const [name, v] of Object.entries(s['variables'])) {
        if (isObject(v))
          setOwn(variables, name, {
            default: String(v['default'] ?? ''),
            ...(Array.isArray(v['enum']) && v['enum'].length > 0
              ? { enum: v['enum'].map((e) => String(e)) }
              : {}),
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
