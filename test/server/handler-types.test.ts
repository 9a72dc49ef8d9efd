/**
 * Type-level tests of the generated Handlers (checked by tsc, since test/ is in tsconfig.json,
 * and by vitest's expectTypeOf): each handler's query, path and body come from the spec, its
 * result is the payload of the envelope, file fields are left out of a multipart body, and an
 * optional body may be undefined. Handlers is a mapped type over HandlerSpecs (issue 17); these
 * pin what a handler author sees.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../../generated/types.ts';
import type { HandlerSpecs, Handlers } from '../../generated/server/index.ts';
import type {
  HandlerOf,
  HandlerSpec,
  OperationInput,
  ServiceResult,
} from '../../runtime/server/index.ts';

type Schemas = components['schemas'];
type Input<H> = H extends (input: infer I) => unknown ? I : never;
type Result<H> = H extends (input: never) => Promise<infer R> ? R : never;

describe('the generated Handlers are typed from the spec', () => {
  it('types the query, path and payload of an enveloped GET', () => {
    type H = Handlers['getAirQuality'];
    expectTypeOf<Input<H>['query']>().toEqualTypeOf<
      { location?: string; city?: string; lang?: 'zh' | 'en' } & Record<string, unknown>
    >();
    expectTypeOf<Input<H>['path']>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<Input<H>['body']>().toEqualTypeOf<undefined>();
    type Payload = Schemas['AirQualityResponse']['Data'];
    expectTypeOf<Result<H>>().toEqualTypeOf<Payload | ServiceResult<Payload>>();
  });

  it('reads the payload under either envelope spelling', () => {
    type Payload = Schemas['IpLocationResponse']['data'];
    expectTypeOf<Result<Handlers['getIpLocation']>>().toEqualTypeOf<
      Payload | ServiceResult<Payload>
    >();
  });

  it('leaves the file fields out of a multipart body and types the path', () => {
    type I = Input<Handlers['uploadKnowledgeBaseDocuments']>;
    expectTypeOf<I['body']>().toEqualTypeOf<Omit<Schemas['KnowledgeBaseUploadRequest'], 'files'>>();
    expectTypeOf<I['path']>().toEqualTypeOf<
      paths['/ai/knowledge-bases/{knowledge_base_id}/documents']['post']['parameters']['path']
    >();
    expectTypeOf<HandlerSpecs['uploadKnowledgeBaseDocuments']['files']>().toEqualTypeOf<'files'>();
  });

  it('lets an optional body be undefined, and a response without content return anything', () => {
    type Op = paths['/ai/admission/predict']['post'];
    type Body = NonNullable<Op['requestBody']>['content']['application/json'];
    type Optional = HandlerOf<{ op: Op; body: 'application/json'; bodyRequired: false }>;
    expectTypeOf<Optional>().toEqualTypeOf<
      (
        input: OperationInput<Record<string, never>, Record<string, never>, Body | undefined>,
      ) => Promise<unknown>
    >();
    type Required = HandlerOf<{ op: Op; body: 'application/json'; bodyRequired: true }>;
    expectTypeOf<Input<Required>['body']>().toEqualTypeOf<Body>();
  });

  it('reads entries of the shape HandlerSpec documents', () => {
    expectTypeOf<HandlerSpecs[keyof HandlerSpecs]>().toExtend<HandlerSpec>();
    expectTypeOf<{ op: unknown; status: 200 }>().not.toExtend<HandlerSpec>();
  });

  it('has one handler per operation of the spec', () => {
    expectTypeOf<keyof Handlers>().toEqualTypeOf<keyof HandlerSpecs>();
    expectTypeOf<'getAirQuality'>().toExtend<keyof Handlers>();
    expectTypeOf<'notAnOperation'>().not.toExtend<keyof Handlers>();
  });
});
