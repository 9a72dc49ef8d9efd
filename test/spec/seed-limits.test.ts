/**
 * Limits, defaults, enumerations and business status codes, as spec/openapi.yaml holds them:
 * the facts of docs/service.md and the x-dataapi-* conventions other code depends on.
 * Reads only spec/.
 */
import { describe, expect, it } from 'vitest';
import {
  doc,
  obj,
  list,
  deref,
  operations,
  op,
  param,
  paramSchema,
  bodySchema,
  okSchema,
  prop,
} from './seed.ts';

describe('limits and defaults (docs/service.md §7)', () => {
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

describe('enumerations of the detailed operations', () => {
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

describe('business status codes (docs/service.md §5)', () => {
  const groups = obj(doc['x-dataapi-business-code-groups'], 'groups');

  function codes(name: string): [number, string][] {
    const group = obj(groups[name], name);
    return list(group.codes, `${name} codes`).map((c) => {
      const code = obj(c, 'code');
      return [Number(code.code), String(code.outcome)];
    });
  }

  const GROUPS: [name: string, success: number, codes: [number, string][]][] = [
    [
      'A',
      100,
      [
        [100, 'ok'],
        [101, 'invalid_parameters'],
        [102, 'rate_limited'],
        [103, 'in_arrears'],
        [104, 'wrong_key'],
        [110, 'service_error'],
      ],
    ],
    [
      'B',
      100,
      [
        [100, 'ok'],
        [501, 'invalid_parameters'],
        [502, 'rate_limited'],
        [503, 'key_expired'],
        [504, 'wrong_key'],
        [505, 'quota_exceeded'],
        [-9, 'service_error'],
      ],
    ],
    [
      'C',
      200,
      [
        [200, 'ok'],
        [400, 'invalid_parameters'],
        [429, 'rate_limited'],
        [403, 'in_arrears'],
        [402, 'wrong_key'],
        [500, 'service_error'],
      ],
    ],
  ];

  for (const [name, success, expected] of GROUPS)
    it(`group ${name}`, () => {
      expect(obj(groups[name], name).success).toBe(success);
      expect(codes(name)).toEqual(expected);
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
