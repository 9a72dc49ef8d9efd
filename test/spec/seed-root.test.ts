/**
 * The root of the description, its operations, their preview variants and key transports, as
 * spec/openapi.yaml holds them: the facts of docs/service.md and the x-dataapi-* conventions
 * other code depends on. Reads only spec/.
 */
import { describe, expect, it } from 'vitest';
import {
  doc,
  obj,
  list,
  deref,
  operations,
  op,
  bodySchema,
  prop,
  effectiveSecurity,
  DETAILED,
  CATEGORIES,
  ERROR_CODES,
} from './seed.ts';

describe('root (docs/service.md §1, §7, §9)', () => {
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

  it('has one tag per category of the service, with its content as description', () => {
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

  it('defines both key transports (docs/service.md §3)', () => {
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

  it('every operation declares 200 and every HTTP error code of docs/service.md §4', () => {
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

describe('preview variants (docs/service.md §1)', () => {
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

describe('key transports (docs/service.md §3)', () => {
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
