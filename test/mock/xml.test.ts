/**
 * XML bodies (issue 26, class 13): where an operation declares only an XML media type the mock
 * answers XML written by the schema's `xml` hints (renamed elements, attributes, a wrapped list,
 * a namespace with a prefix), well-formed and read back by the suite into a value its schema
 * accepts; a refusal keeps its reason beside the description's error body.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from 'dataapi/runtime/mock';
import { validatorFor } from 'dataapi/runtime/shared';
import type { ServiceModel } from 'dataapi/model';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { xmlFault, xmlValue } from '../../runtime/xml/read.ts';
import { validRequests } from '../../contract-tests/requests.ts';
import { serialise } from '../../contract-tests/serialise.ts';
import { bodySerializerFor } from '../../runtime/client/serialize.ts';
import { FIXTURES } from '../generator/helpers.ts';

let model: ServiceModel;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  model = normalise(await loadSpec(path.join(FIXTURES, 'formats/xml.yaml')));
  // No rate limit (the default 5 per second would refuse the sixth request of a test here).
  app = await createMock(model, { seed: 7, rateLimit: false });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const op = (id: string) => model.operations.find((o) => o.id === id)!;

describe('the mock on XML-only operations', () => {
  it('answers XML by the xml hints, with the declared content type', async () => {
    const res = await fetch(`${url}/pets`, { headers: { accept: 'application/xml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const text = await res.text();
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toMatch(/<p:pets xmlns:p="https:\/\/example\.com\/pets" count="\d+">/);
    expect(text).toMatch(/<list>(<pet id="\d+"><petName>[^<]+<\/petName>.*<\/pet>)*<\/list>/);
    const read = xmlValue(model, op('listPets').success!.schema, text);
    expect(read && 'value' in read).toBe(true);
    const value = (read as { value: Record<string, unknown> }).value;
    expect(typeof value['count']).toBe('number');
    expect(Array.isArray(value['items'])).toBe(true);
    expect(validatorFor(model).compile(op('listPets').success!.schema!)(value)).toBe(true);
  });

  it('answers a +xml type too, and an XML error that keeps the reason in x-dataapi-reason', async () => {
    const made = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 3, name: 'Rex' }),
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    expect(xmlFault(await made.text())).toBeUndefined();
    const refused = await fetch(`${url}/pets?limit=x`);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await refused.text()).toMatch(/^<\?xml[^>]*>\n<problem>/);
    expect(refused.headers.get('x-dataapi-reason')).toMatch(/limit/);
  });
});

describe('XML request bodies', () => {
  const put = (body: string) =>
    fetch(`${url}/pets/4`, {
      method: 'PUT',
      headers: { 'content-type': 'application/xml' },
      body,
    });

  it('takes a body that maps to a value its schema accepts', async () => {
    const res = await put('<pet id="4"><petName>Rex</petName><tag>a</tag></pet>');
    expect(res.status, await res.text()).toBe(204);
  });

  it('refuses, with the reason, a body the schema rejects, one not well-formed, a wrong root', async () => {
    const cases: [string, RegExp][] = [
      ['<pet id="4"><name>Rex</name></pet>', /petName|name/],
      ['<pet id="0"><petName>Rex</petName></pet>', /id/],
      ['<pet id="4"><petName>Rex</pet>', /not well-formed XML/],
      ['<animal id="4"><petName>Rex</petName></animal>', /root element <pet> expected/],
      ['', /empty body|body is required/],
    ];
    for (const [body, reason] of cases) {
      const res = await put(body);
      expect(res.status, body).toBe(400);
      expect(res.headers.get('x-dataapi-reason'), body).toMatch(reason);
    }
  });

  it('the suite writes a value as XML by the hints; the client sends XML text as given', () => {
    const spec = validRequests(model, op('replacePet'))[0]!;
    const req = serialise(op('replacePet'), spec, {
      path: op('replacePet').path,
      key: 'none',
      appkey: 'k',
      purpose: 't',
      model,
    });
    expect(req.headers['content-type']).toBe('application/xml');
    expect(req.body).toMatch(
      /<pet id="4"><petName>Rex<\/petName><tags>a<\/tags><tags>b<\/tags><\/pet>|<pet id="4"><petName>Rex<\/petName><tag>a<\/tag><tag>b<\/tag><\/pet>/,
    );
    // The generated client sends the XML text it is given (its bundle carries no XML writer).
    expect(bodySerializerFor(op('replacePet'), model)(req.body)).toBe(req.body);
  });
});

describe('reading XML answers back', () => {
  it('reads scalars and lists typed through allOf (AWS: allOf of a $ref and a description)', () => {
    const boxed = {
      openapi: '3.0.3',
      info: { title: 'boxed', version: '1' },
      paths: {
        '/status': {
          get: {
            operationId: 'status',
            responses: {
              '200': {
                description: 'ok',
                content: { 'text/xml': { schema: { $ref: '#/components/schemas/Status' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          BoxedInteger: { type: 'integer' },
          Names: {
            type: 'array',
            items: { type: 'string', xml: { name: 'member' } },
            xml: { wrapped: true },
          },
          Status: {
            type: 'object',
            xml: { name: 'Status' },
            properties: {
              Count: {
                allOf: [{ $ref: '#/components/schemas/BoxedInteger' }, { description: 'n' }],
              },
              Errors: { allOf: [{ $ref: '#/components/schemas/Names' }, { description: 'e' }] },
            },
          },
        },
      },
    };
    const m = normalise({ file: 'inline.json', locate: () => undefined, document: boxed });
    const schema = m.operations[0]!.success!.schema;
    const read = xmlValue(m, schema, '<Status><Count>993</Count><Errors/></Status>');
    expect(read).toEqual({ value: { Count: 993, Errors: [] } });
    const two = '<Status><Errors><member>a</member><member>b</member></Errors></Status>';
    expect(xmlValue(m, schema, two)).toEqual({ value: { Errors: ['a', 'b'] } });
  });

  it('says where a body is not well-formed', () => {
    expect(xmlFault('<pet><name>a</pet>')).toMatch(
      /^not well-formed XML: .*\(line 1, column \d+\)/,
    );
    expect(xmlFault('')).toBe('an empty body');
  });

  it('maps a body by the hints, so the schema check sees what is missing or mistyped', () => {
    const schema = op('addPet').success!.schema;
    const validate = validatorFor(model).compile(schema!);
    const good = xmlValue(
      model,
      schema,
      '<pet id="4"><petName>Rex</petName><tag>a</tag><tag>b</tag></pet>',
    );
    expect(good).toEqual({ value: { id: 4, name: 'Rex', tags: ['a', 'b'] } });
    expect(validate((good as { value: unknown }).value)).toBe(true);
    // The element the schema names is absent (written under the property's name instead).
    const bad = xmlValue(model, schema, '<pet id="x"><name>Rex</name></pet>');
    expect(validate((bad as { value: unknown }).value)).toBe(false);
    expect(xmlValue(model, schema, '<animal id="1"/>')).toEqual({
      rootMismatch: 'root element <pet> expected, got <animal>',
    });
  });
});
