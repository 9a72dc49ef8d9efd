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
import { xmlFault, xmlValue } from '../../contract-tests/xml.ts';
import { FIXTURES } from '../generator/helpers.ts';

let model: ServiceModel;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  model = normalise(await loadSpec(path.join(FIXTURES, 'formats/xml.yaml')));
  app = await createMock(model, { seed: 7 });
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

describe('reading XML answers back', () => {
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
