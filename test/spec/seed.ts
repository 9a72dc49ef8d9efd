/**
 * The description as the spec tests read it: spec/openapi.yaml parsed on its own (no toolkit
 * code), with small accessors for operations, parameters, bodies and schemas, and the lists of
 * the service's facts (docs/service.md) the tests hold it to.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type Json = Record<string, unknown>;

export const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
export const doc = parse(readFileSync(specPath, 'utf8')) as Json;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function obj(value: unknown, what: string): Json {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value;
}

/** Follows a local `$ref` (one level after another) to its target. */
export function deref(value: unknown): unknown {
  let current = value;
  for (let i = 0; i < 10 && isObject(current) && typeof current.$ref === 'string'; i++) {
    const ref: string = current.$ref;
    current = ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
  }
  return current;
}

export interface Op {
  id: string;
  method: string;
  path: string;
  op: Json;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export const operations: Op[] = Object.entries(obj(doc.paths, 'paths')).flatMap(([path, item]) =>
  Object.entries(obj(item, path))
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => {
      const o = obj(op, `${method} ${path}`);
      return { id: String(o.operationId), method, path, op: o };
    }),
);

export function op(id: string): Op {
  const found = operations.find((o) => o.id === id);
  if (!found) throw new Error(`operation ${id} not found`);
  return found;
}

export function param(id: string, name: string): Json {
  const params = list(op(id).op.parameters ?? [], `${id} parameters`).map(deref);
  const p = params.find((x) => isObject(x) && x.name === name);
  return obj(p, `${id} parameter ${name}`);
}

export function paramSchema(id: string, name: string): Json {
  return obj(deref(param(id, name).schema), `${id} ${name} schema`);
}

export function bodySchema(id: string, mediaType: string): Json {
  const body = obj(deref(op(id).op.requestBody), `${id} requestBody`);
  const media = obj(obj(body.content, 'content')[mediaType], `${id} ${mediaType}`);
  return obj(deref(media.schema), `${id} body schema`);
}

export function okSchema(id: string): Json {
  const response = obj(deref(obj(op(id).op.responses, 'responses')['200']), `${id} 200`);
  const media = obj(obj(response.content, 'content')['application/json'], `${id} 200 json`);
  return obj(deref(media.schema), `${id} 200 schema`);
}

export function prop(schema: Json, name: string): Json {
  return obj(deref(obj(schema.properties, 'properties')[name]), `property ${name}`);
}

export function effectiveSecurity(o: Op): unknown {
  return o.op.security ?? doc.security;
}

export const DETAILED = [
  'getAirQuality',
  'rankAdmissionMajorLines',
  'predictAdmission',
  'uploadKnowledgeBaseDocuments',
  'compareExamQuestions',
  'extractArticle',
  'getIpLocation',
  'getSslCertInfo',
  'getGlobalUniversityRanking',
  'extractDocumentFields',
];

export const CATEGORIES = [
  'Barcode tools',
  'Finance, basic',
  'Business, analysis',
  'Education, college entrance exam',
  'Image, conversion',
  'AI, models',
  'Metadata, news',
  'Weather, air quality',
  'Region, coordinates',
  'Text, NLP',
  'Website tools',
  'Traditional culture, entertainment',
];

export const FUND_PATHS = [
  '/fund/open/realtime',
  '/fund/open/history',
  '/fund/historyminute',
  '/fund/open/etfrealtime',
  '/fund/basicinfo',
  '/fund/open/etfhistory',
  '/fund/basic/index',
  '/fund/open-nav-realtime',
  '/fund/open-nav-history',
  '/fund/fund-open-ranking-list',
  '/fund/fund-etf-open-ranking-list',
  '/fund/fund-value-estimation',
];

export const ERROR_CODES = ['400', '401', '403', '404', '405', '415', '429', '500', '502'];
