/**
 * The facts of the service's interface document (sections 1 to 9) as held by
 * spec/openapi.yaml, and the x-dataapi-* conventions other code depends on.
 * Reads only spec/.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;

const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const doc = parse(readFileSync(specPath, 'utf8')) as Json;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown, what: string): Json {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value;
}

/** Follows a local `$ref` (one level after another) to its target. */
function deref(value: unknown): unknown {
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

interface Op {
  id: string;
  method: string;
  path: string;
  op: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations: Op[] = Object.entries(obj(doc.paths, 'paths')).flatMap(([path, item]) =>
  Object.entries(obj(item, path))
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => {
      const o = obj(op, `${method} ${path}`);
      return { id: String(o.operationId), method, path, op: o };
    }),
);

function op(id: string): Op {
  const found = operations.find((o) => o.id === id);
  if (!found) throw new Error(`operation ${id} not found`);
  return found;
}

function param(id: string, name: string): Json {
  const params = list(op(id).op.parameters ?? [], `${id} parameters`).map(deref);
  const p = params.find((x) => isObject(x) && x.name === name);
  return obj(p, `${id} parameter ${name}`);
}

function paramSchema(id: string, name: string): Json {
  return obj(deref(param(id, name).schema), `${id} ${name} schema`);
}

function bodySchema(id: string, mediaType: string): Json {
  const body = obj(deref(op(id).op.requestBody), `${id} requestBody`);
  const media = obj(obj(body.content, 'content')[mediaType], `${id} ${mediaType}`);
  return obj(deref(media.schema), `${id} body schema`);
}

function okSchema(id: string): Json {
  const response = obj(deref(obj(op(id).op.responses, 'responses')['200']), `${id} 200`);
  const media = obj(obj(response.content, 'content')['application/json'], `${id} 200 json`);
  return obj(deref(media.schema), `${id} 200 schema`);
}

function prop(schema: Json, name: string): Json {
  return obj(deref(obj(schema.properties, 'properties')[name]), `property ${name}`);
}

function effectiveSecurity(o: Op): unknown {
  return o.op.security ?? doc.security;
}

const DETAILED = [
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

const CATEGORIES = [
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

const FUND_PATHS = [
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

const ERROR_CODES = ['400', '401', '403', '404', '405', '415', '429', '500', '502'];

describe('root (seed 1, 8, 9)', () => {
  it('is OpenAPI 3.1.0 with title and version label 3.1', () => {
    expect(doc.openapi).toBe('3.1.0');
    const info = obj(doc.info, 'info');
    expect(info.title).toBe('Data and AI API Service');
    expect(info.version).toBe('3.1');
    const description = String(info.description);
    for (const fact of ['194', '148', '9 preview', '36 related', 'TLS 1.0', 'deprecated']) {
      expect(description).toContain(fact);
    }
  });

  it('has one tag per category of seed 1, with the Content column as description', () => {
    const tags = list(doc.tags, 'tags').map((t) => obj(t, 'tag'));
    expect(tags.map((t) => t.name)).toEqual(CATEGORIES);
    expect(
      obj(
        tags.find((t) => t.name === 'Business, analysis'),
        'tag',
      ).description,
    ).toBe('Funds, exchange rates, options');
  });

  it('has the base_url server variable and the default query key transport', () => {
    const server = obj(list(doc.servers, 'servers')[0], 'server');
    expect(server.url).toBe('{base_url}');
    const variable = obj(obj(server.variables, 'variables').base_url, 'base_url');
    expect(variable.default).toMatch(/^https:\/\//);
    expect(doc.security).toEqual([{ appkeyQuery: [] }]);
  });

  it('defines both key transports of seed 5', () => {
    const schemes = obj(obj(doc.components, 'components').securitySchemes, 'securitySchemes');
    expect(schemes.appkeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'appkey' });
    expect(schemes.appkeyHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-SERVICE-APPKEY',
    });
  });

  it('has the default rate limit of 5 queries per second per operation', () => {
    expect(doc['x-dataapi-rate-limit']).toEqual({ limit: 5, per: 'second' });
  });
});

describe('operations', () => {
  it('have unique operationIds and exactly one known tag each', () => {
    const ids = operations.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of operations) {
      const tags = list(o.op.tags, `${o.id} tags`);
      expect(tags, o.id).toHaveLength(1);
      expect(CATEGORIES, o.id).toContain(tags[0]);
    }
  });

  it('categorise the detailed operations sensibly', () => {
    const expected: Record<string, string> = {
      getAirQuality: 'Weather, air quality',
      rankAdmissionMajorLines: 'Education, college entrance exam',
      predictAdmission: 'Education, college entrance exam',
      compareExamQuestions: 'Education, college entrance exam',
      uploadKnowledgeBaseDocuments: 'AI, models',
      extractArticle: 'AI, models',
      extractDocumentFields: 'AI, models',
      getIpLocation: 'Region, coordinates',
      getSslCertInfo: 'Website tools',
      getGlobalUniversityRanking: 'Metadata, news',
      getFundBasicInfo: 'Business, analysis',
    };
    for (const [id, tag] of Object.entries(expected)) expect(op(id).op.tags).toEqual([tag]);
  });

  it('every operation declares 200 and every HTTP error code of seed 7.1', () => {
    for (const o of operations) {
      const responses = obj(o.op.responses, `${o.id} responses`);
      for (const code of ['200', ...ERROR_CODES])
        expect(responses, `${o.id} ${code}`).toHaveProperty(code);
    }
  });

  it('error responses carry open CommonResponse-style bodies, 429 Retry-After and 405 Allow', () => {
    const tooMany = obj(deref(obj(op('getAirQuality').op.responses, 'r')['429']), '429');
    expect(obj(tooMany.headers, 'headers')).toHaveProperty('Retry-After');
    const notAllowed = obj(deref(obj(op('getAirQuality').op.responses, 'r')['405']), '405');
    expect(obj(notAllowed.headers, 'headers')).toHaveProperty('Allow');
    const badGateway = obj(deref(obj(op('getAirQuality').op.responses, 'r')['502']), '502');
    expect(String(badGateway.description)).toContain('data service temporarily unavailable');
    const schemas = obj(obj(doc.components, 'components').schemas, 'schemas');
    for (const name of ['CommonResponse', 'AdmissionErrorResponse']) {
      const schema = obj(schemas[name], name);
      expect(schema.required, name).toBeUndefined();
      expect(schema.additionalProperties, name).toBeUndefined();
    }
  });

  it('never model the key as an appkey parameter', () => {
    for (const o of operations) {
      for (const p of list(o.op.parameters ?? [], o.id).map(deref)) {
        expect(obj(p, o.id).name, o.id).not.toBe('appkey');
      }
    }
  });

  it('carry the x-dataapi extensions with the right shapes', () => {
    const groups = obj(doc['x-dataapi-business-code-groups'], 'groups');
    for (const o of operations) {
      expect(['capitalised', 'lowerCamel', 'none'], o.id).toContain(o.op['x-dataapi-envelope']);
      expect(typeof o.op['x-dataapi-preview'], o.id).toBe('boolean');
      if (o.op['x-dataapi-envelope'] === 'none') {
        expect(o.op['x-dataapi-business-codes'], o.id).toBeUndefined();
      } else {
        expect(Object.keys(groups), o.id).toContain(o.op['x-dataapi-business-codes']);
      }
      for (const key of ['x-dataapi-not-shown', 'x-dataapi-assumed']) {
        const value: unknown = o.op[key];
        if (value !== undefined) {
          for (const item of list(value, `${o.id} ${key}`)) expect(typeof item).toBe('string');
        }
      }
    }
  });
});

describe('preview variants (seed 1.4)', () => {
  it('each detailed operation has its explicit /demo pair without a key', () => {
    for (const id of DETAILED) {
      const base = op(id);
      expect(base.op['x-dataapi-preview'], id).toBe(true);
      const demo = op(`${id}Demo`);
      expect(demo.method).toBe(base.method);
      expect(demo.path).toBe(`${base.path}/demo`);
      expect(demo.op.security).toEqual([]);
      expect(demo.op['x-dataapi-preview-of']).toBe(id);
      expect(demo.op['x-dataapi-preview']).toBe(false);
      expect(demo.op.parameters).toEqual(base.op.parameters);
      expect(obj(demo.op.responses, 'r')['200']).toEqual(obj(base.op.responses, 'r')['200']);
      expect(demo.op['x-dataapi-envelope']).toBe(base.op['x-dataapi-envelope']);
      expect(demo.op['x-dataapi-business-codes']).toBe(base.op['x-dataapi-business-codes']);
      expect(demo.op['x-dataapi-body-key']).toBeUndefined();
    }
  });

  it('the detailed operations are marked as having a preview, and every /demo pairs with one', () => {
    // Exactly the seed's ten among the seed's operations; an operation an integrator scaffolded
    // (`dataapi scaffold` adds a preview by default) is not a seed fact, but must pair the same way.
    const marked = operations.filter((o) => o.op['x-dataapi-preview'] === true).map((o) => o.id);
    expect(marked).toEqual(expect.arrayContaining([...DETAILED]));
    const demos = operations.filter((o) => o.path.endsWith('/demo'));
    expect(demos.map((o) => o.id)).toEqual(
      expect.arrayContaining(DETAILED.map((id) => `${id}Demo`)),
    );
    for (const id of marked.filter((m) => !DETAILED.includes(m))) {
      expect(String(op(id).op.description), id).toMatch(/Added by dataapi scaffold/);
      expect(
        demos.some((d) => d.op['x-dataapi-preview-of'] === id),
        id,
      ).toBe(true);
    }
    for (const d of demos) expect(marked, d.id).toContain(d.op['x-dataapi-preview-of']);
  });
});

describe('key transports (seed 5)', () => {
  it('exam-question similarity sends the key in the X-SERVICE-APPKEY header', () => {
    expect(op('compareExamQuestions').op.security).toEqual([{ appkeyHeader: [] }]);
  });

  it('article extraction takes the key in the query or the JSON body', () => {
    const article = op('extractArticle');
    expect(effectiveSecurity(article)).toEqual([{ appkeyQuery: [] }]);
    expect(article.op['x-dataapi-body-key']).toBe('appkey');
    const body = bodySchema('extractArticle', 'application/json');
    expect(prop(body, 'appkey').type).toBe('string');
    expect(body.required).toEqual(['url']);
  });

  it('every other non-preview operation uses the appkey query parameter', () => {
    for (const o of operations) {
      if (o.path.endsWith('/demo') || o.id === 'compareExamQuestions') continue;
      expect(effectiveSecurity(o), o.id).toEqual([{ appkeyQuery: [] }]);
    }
  });
});

describe('limits and defaults (seed 4, 8)', () => {
  it('university ranking paging', () => {
    expect(paramSchema('getGlobalUniversityRanking', 'pageSize')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 20,
    });
    expect(paramSchema('getGlobalUniversityRanking', 'pageIndex')).toMatchObject({
      type: 'integer',
      default: 1,
    });
  });

  it('admission major-line rank body', () => {
    const body = bodySchema('rankAdmissionMajorLines', 'application/json');
    expect(body.required).toEqual(['province', 'subject_type', 'score']);
    expect(prop(body, 'score')).toMatchObject({ type: 'number', minimum: 0, maximum: 750 });
    expect(prop(body, 'page_size')).toMatchObject({ maximum: 50, default: 10 });
    expect(prop(body, 'candidate_limit')).toMatchObject({ maximum: 50, default: 30 });
    expect(prop(body, 'score_window')).toMatchObject({ minimum: 0, default: 60 });
    expect(prop(body, 'page_index')).toMatchObject({ minimum: 1, default: 1 });
    expect(prop(body, 'major_name_strict').default).toBe(false);
    expect(prop(body, 'exclude_major_category').default).toBe(true);
    expect(prop(body, 'include_prediction_evidence').default).toBe(false);
    expect(prop(body, 'rank').type).toEqual(['integer', 'null']);
    expect(new RegExp(String(prop(body, 'minrange').pattern)).test('600,650')).toBe(true);
    expect(new RegExp(String(prop(body, 'minrange').pattern)).test('600')).toBe(false);
  });

  it('rate limits per operation', () => {
    expect(op('getAirQuality').op['x-dataapi-rate-limit']).toEqual({ limit: 100, per: 'minute' });
    expect(op('getGlobalUniversityRanking').op['x-dataapi-rate-limit']).toEqual({
      limit: 100,
      per: 'second',
    });
    expect(op('getSslCertInfo').op['x-dataapi-rate-limit']).toEqual({ limit: 100, per: 'second' });
    const overridden = ['getAirQuality', 'getGlobalUniversityRanking', 'getSslCertInfo'];
    for (const o of operations) {
      const base = o.id.replace(/Demo$/, '');
      if (!overridden.includes(base)) expect(o.op['x-dataapi-rate-limit'], o.id).toBeUndefined();
    }
  });

  it('required query parameters', () => {
    expect(param('getIpLocation', 'ip').required).toBe(true);
    expect(param('getSslCertInfo', 'domain').required).toBe(true);
    expect(
      new RegExp(String(paramSchema('getSslCertInfo', 'domain').pattern)).test('https://a.cn'),
    ).toBe(true);
    expect(param('getAirQuality', 'location').required).toBe(false);
    expect(param('getAirQuality', 'city').required).toBe(false);
    expect(op('getAirQuality').op['x-dataapi-require-any-of']).toEqual([['location', 'city']]);
    expect(op('getAirQualityDemo').op['x-dataapi-require-any-of']).toEqual([['location', 'city']]);
  });
});

describe('enumerations (seed 2, 3, 4)', () => {
  it('air quality lang and item freshness', () => {
    expect(paramSchema('getAirQuality', 'lang')).toMatchObject({
      enum: ['zh', 'en'],
      default: 'zh',
    });
    const item = obj(deref(obj(prop(okSchema('getAirQuality'), 'Data').items, 'items')), 'item');
    expect(prop(item, 'DataStatus').enum).toEqual(['fresh', 'stale']);
    expect(prop(item, 'RetrievedAt').format).toBe('date-time');
    expect(item.required).toEqual(
      expect.arrayContaining(['City', 'LocationId', 'AQI', 'Quality', 'Pollutants', 'Stations']),
    );
  });

  it('admission probability sort and evidence consistency', () => {
    const body = bodySchema('rankAdmissionMajorLines', 'application/json');
    expect(prop(body, 'probability_sort')).toMatchObject({
      enum: ['desc', 'asc'],
      default: 'desc',
    });
    const data = prop(okSchema('predictAdmission'), 'Data');
    const item = obj(deref(obj(prop(data, 'predictions').items, 'items')), 'prediction');
    expect(prop(item, 'evidence_consistency_status').enum).toEqual([
      'VERIFIED',
      'PARTIAL',
      'FAILED',
    ]);
    expect(prop(item, 'chance_score')).toMatchObject({ minimum: 0, maximum: 1 });
    expect(prop(item, 'admission_probability')).toMatchObject({ minimum: 0, maximum: 1 });
  });
});

describe('business status codes (seed 7.2)', () => {
  const groups = obj(doc['x-dataapi-business-code-groups'], 'groups');

  function codes(name: string): [number, string][] {
    const group = obj(groups[name], name);
    return list(group.codes, `${name} codes`).map((c) => {
      const code = obj(c, 'code');
      return [Number(code.code), String(code.outcome)];
    });
  }

  it('group A', () => {
    expect(obj(groups.A, 'A').success).toBe(100);
    expect(codes('A')).toEqual([
      [100, 'ok'],
      [101, 'invalid_parameters'],
      [102, 'rate_limited'],
      [103, 'in_arrears'],
      [104, 'wrong_key'],
      [110, 'service_error'],
    ]);
  });

  it('group B', () => {
    expect(obj(groups.B, 'B').success).toBe(100);
    expect(codes('B')).toEqual([
      [100, 'ok'],
      [501, 'invalid_parameters'],
      [502, 'rate_limited'],
      [503, 'key_expired'],
      [504, 'wrong_key'],
      [505, 'quota_exceeded'],
      [-9, 'service_error'],
    ]);
  });

  it('group C', () => {
    expect(obj(groups.C, 'C').success).toBe(200);
    expect(codes('C')).toEqual([
      [200, 'ok'],
      [400, 'invalid_parameters'],
      [429, 'rate_limited'],
      [403, 'in_arrears'],
      [402, 'wrong_key'],
      [500, 'service_error'],
    ]);
  });

  it('base group holds only 100 = ok', () => {
    expect(obj(groups.base, 'base').success).toBe(100);
    expect(codes('base')).toEqual([[100, 'ok']]);
  });

  it('operations name their group', () => {
    const expected: Record<string, string> = {
      getAirQuality: 'A',
      getGlobalUniversityRanking: 'A',
      rankAdmissionMajorLines: 'B',
      predictAdmission: 'B',
      getSslCertInfo: 'C',
      getIpLocation: 'base',
      extractArticle: 'base',
      getFundBasicInfo: 'base',
    };
    for (const [id, group] of Object.entries(expected)) {
      expect(op(id).op['x-dataapi-business-codes'], id).toBe(group);
      expect(op(`${id}`).op['x-dataapi-business-codes']).toBe(group);
    }
  });
});

describe('envelopes (seed 2.1)', () => {
  it('spelling per operation', () => {
    for (const o of operations) {
      const base = o.id.replace(/Demo$/, '');
      const envelope = o.op['x-dataapi-envelope'];
      if (base === 'getIpLocation' || base === 'getSslCertInfo') {
        expect(envelope, o.id).toBe('lowerCamel');
      } else if (base === 'compareExamQuestions') {
        expect(envelope, o.id).toBe('none');
      } else {
        expect(envelope, o.id).toBe('capitalised');
      }
    }
  });

  it('envelope schemas use the spelling they are declared with', () => {
    for (const o of operations) {
      const schema = okSchema(o.id);
      const envelope = o.op['x-dataapi-envelope'];
      if (envelope === 'capitalised') expect(schema.required, o.id).toEqual(['DataStatus', 'Data']);
      if (envelope === 'lowerCamel') {
        expect(schema.required, o.id).toEqual(['dataStatus', 'data']);
        expect(obj(schema.properties, 'p'), o.id).toHaveProperty('DataStatus');
      }
      if (envelope === 'none') expect(schema.required, o.id).toBeUndefined();
    }
  });

  it('the SSL status object adds status; the prediction status adds RequestId and NoDataReason', () => {
    const ssl = JSON.stringify(deref(prop(okSchema('getSslCertInfo'), 'dataStatus')));
    expect(ssl).toContain('LowerCamelDataStatus');
    expect(ssl).toContain('"status"');
    const admission = JSON.stringify(
      deref(obj(okSchema('predictAdmission').properties, 'p').DataStatus),
    );
    expect(admission).toContain('RequestId');
    expect(admission).toContain('NoDataReason');
  });
});

describe('related operations (seed 3, 4.6, 4.10, 4.11)', () => {
  it('the 12 fund paths are GET operations with nothing shown', () => {
    const funds = operations.filter((o) => o.path.startsWith('/fund/'));
    expect(funds.map((o) => o.path).sort()).toEqual([...FUND_PATHS].sort());
    for (const f of funds) {
      expect(f.method).toBe('get');
      expect(f.op.tags).toEqual(['Business, analysis']);
      expect(f.op['x-dataapi-preview']).toBe(false);
      expect(f.op['x-dataapi-business-codes']).toBe('base');
      expect(list(f.op['x-dataapi-not-shown'], f.id).length).toBeGreaterThan(0);
      expect(list(f.op['x-dataapi-assumed'], f.id).join(' ')).toContain('envelope');
    }
  });

  it('the asynchronous document-extraction pair is linked and marked assumed', () => {
    const submit = op('submitDocumentExtraction');
    const status = op('getDocumentExtractionTask');
    expect([submit.method, submit.path]).toEqual(['post', '/v1/document-extractions/async']);
    expect([status.method, status.path]).toEqual([
      'get',
      '/v1/document-extractions/tasks/{task_id}',
    ]);
    expect(submit.op['x-dataapi-async']).toEqual({ role: 'submit', partner: status.id });
    expect(status.op['x-dataapi-async']).toEqual({ role: 'status', partner: submit.id });
    expect(submit.op['x-dataapi-writes']).toBe(true);
    expect(op('uploadKnowledgeBaseDocuments').op['x-dataapi-writes']).toBe(true);
    for (const o of [submit, status]) {
      expect(list(o.op['x-dataapi-assumed'], o.id).join(' ')).toContain(o.path);
    }
  });

  it('extractFromHtml is open and not previewed', () => {
    const html = op('extractArticleFromHtml');
    expect(html.path).toBe('/ai/v1/articles/extractFromHtml');
    expect(html.op['x-dataapi-preview']).toBe(false);
    expect(bodySchema('extractArticleFromHtml', 'application/json').properties).toBeUndefined();
  });

  it('multipart bodies carry their file fields', () => {
    const upload = bodySchema('uploadKnowledgeBaseDocuments', 'multipart/form-data');
    expect(upload.required).toBeUndefined();
    expect(obj(prop(upload, 'files').items, 'items').contentMediaType).toBe(
      'application/octet-stream',
    );
    expect(prop(upload, 'replace_existing').enum).toEqual(['true', 'false']);
    const extraction = bodySchema('extractDocumentFields', 'multipart/form-data');
    expect(Object.keys(obj(extraction.properties, 'p'))).toEqual([
      'file',
      'text',
      'schema',
      'instruction',
      'ocrMode',
      'executionMode',
    ]);
  });
});
