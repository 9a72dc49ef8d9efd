/**
 * Type-level tests of the generated client (checked by tsc, since test/ is in tsconfig.json, and
 * by vitest's expectTypeOf): parameters, bodies and results come from the spec, and a wrong
 * parameter name or type does not compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import {
  createClient,
  type ClientResult,
  type ResponseStatus,
  type SseStream,
} from '../../generated/client/index.ts';

type Schemas = components['schemas'];
const client = createClient({ baseUrl: 'http://127.0.0.1:1', appkey: 'k' });

describe('the generated client is typed from the spec', () => {
  it('types parameters and results of each operation', () => {
    expectTypeOf(client.getAirQuality).parameter(0).toEqualTypeOf<
      | ({
          query?: { location?: string; city?: string; lang?: 'zh' | 'en' };
          header?: never;
          path?: never;
          cookie?: never;
        } & { body?: never })
      | undefined
    >();
    expectTypeOf(client.getAirQuality).returns.resolves.toEqualTypeOf<
      ClientResult<Schemas['AirQualityResponse']['Data']>
    >();
    expectTypeOf(client.getIpLocation)
      .returns.resolves.toHaveProperty('data')
      .toEqualTypeOf<Schemas['IpLocationResponse']['data']>();
    expectTypeOf<
      Awaited<ReturnType<typeof client.getSslCertInfo>>['status']
    >().toEqualTypeOf<ResponseStatus>();
    // A plain JSON operation: data is the whole body.
    expectTypeOf(client.compareExamQuestions)
      .returns.resolves.toHaveProperty('data')
      .toEqualTypeOf<Schemas['ExamSimilarityResponse']>();
    expectTypeOf(client.getAirQualityPreview).parameters.toEqualTypeOf<
      Parameters<typeof client.getAirQuality>
    >();
    expectTypeOf(client.submitAndWait.submitDocumentExtraction)
      .returns.resolves.toHaveProperty('data')
      .toHaveProperty('status')
      .toEqualTypeOf<string | undefined>();
    expectTypeOf(client.getFundOpenRealtime).returns.not.toEqualTypeOf<Promise<SseStream>>();
  });

  it('refuses wrong names, wrong types, missing required values and non-file uploads', () => {
    const never = (f: () => unknown) => f; // type-checked only, never called
    never(() => client.getIpLocation({ query: { ip: '1.1.1.1' } }));
    // @ts-expect-error: ip is required
    never(() => client.getIpLocation());
    // @ts-expect-error: unknown parameter name
    never(() => client.getIpLocation({ query: { ip: '1.1.1.1', ipp: 'x' } }));
    // @ts-expect-error: ip is a string (an IPv4 or IPv6 address), not unknown
    never(() => client.getIpLocation({ query: { ip: 42 } }));
    expectTypeOf<components['parameters']['IpAddress']>().toEqualTypeOf<string>();
    // @ts-expect-error: lang is 'zh' | 'en'
    never(() => client.getAirQuality({ query: { location: '北京', lang: 'fr' } }));
    // @ts-expect-error: pageSize is a number
    never(() => client.getGlobalUniversityRanking({ query: { pageSize: '10' } }));
    // @ts-expect-error: the path parameter is required
    never(() => client.uploadKnowledgeBaseDocuments({ body: { files: [new Blob([])] } }));
    never(() =>
      client.uploadKnowledgeBaseDocuments({
        path: { knowledge_base_id: 'kb' },
        body: { files: [new Blob([]), Buffer.from('x'), { path: '/tmp/a.pdf' }] },
      }),
    );
    never(() =>
      client.uploadKnowledgeBaseDocuments({
        path: { knowledge_base_id: 'kb' },
        // @ts-expect-error: a file field takes a Blob, bytes or a path, not a number
        body: { files: [1] },
      }),
    );
    // @ts-expect-error: exam1 is a string
    never(() => client.compareExamQuestions({ body: { exam1: 1, exam2: 'b' } }));
    // @ts-expect-error: no such operation
    never(() => client.getWeatherForecast());
    // @ts-expect-error: air quality takes no body
    never(() => client.getAirQuality({ body: { city: 'x' } }));
  });
});
