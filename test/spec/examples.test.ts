/**
 * Every example of the description (parameters, headers, request bodies, responses and the
 * `examples` keyword of schemas) validates against its own schema with Ajv (JSON Schema 2020-12).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;

const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));
const addFormats = addFormatsModule.default;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): [string, Json][] {
  return isObject(value)
    ? Object.entries(value).filter((e): e is [string, Json] => isObject(e[1]))
    : [];
}

interface Sample {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Examples of a parameter, header or media type object: `example` and `examples.*.value`. */
function samplesOf(where: string, holder: Json, schema: unknown): Sample[] {
  const out: Sample[] = [];
  if ('example' in holder) out.push({ where: `${where} example`, schema, value: holder.example });
  for (const [name, example] of entries(holder.examples)) {
    if ('value' in example) {
      out.push({ where: `${where} examples.${name}`, schema, value: example.value });
    }
  }
  return out;
}

function collectOperationSamples(doc: Json): Sample[] {
  const out: Sample[] = [];
  for (const [path, item] of entries(doc.paths)) {
    for (const [method, op] of entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      const params = Array.isArray(op.parameters) ? op.parameters : [];
      for (const param of params) {
        if (isObject(param)) {
          out.push(...samplesOf(`${at} parameter ${String(param.name)}`, param, param.schema));
        }
      }
      if (isObject(op.requestBody)) {
        for (const [mediaType, media] of entries(op.requestBody.content)) {
          out.push(...samplesOf(`${at} body ${mediaType}`, media, media.schema));
        }
      }
      for (const [status, response] of entries(op.responses)) {
        for (const [mediaType, media] of entries(response.content)) {
          out.push(...samplesOf(`${at} ${status} ${mediaType}`, media, media.schema));
        }
        for (const [name, header] of entries(response.headers)) {
          out.push(...samplesOf(`${at} ${status} header ${name}`, header, header.schema));
        }
      }
    }
  }
  return out;
}

/** The `examples` arrays of JSON Schemas anywhere under components.schemas. */
function collectSchemaSamples(where: string, schema: unknown, out: Sample[] = []): Sample[] {
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => collectSchemaSamples(`${where}/${i}`, s, out));
    return out;
  }
  if (!isObject(schema)) return out;
  if (Array.isArray(schema.examples)) {
    schema.examples.forEach((value, i) => {
      out.push({ where: `${where} examples[${i}]`, schema, value });
    });
  }
  for (const [key, child] of Object.entries(schema)) {
    if (key !== 'examples') collectSchemaSamples(`${where}/${key}`, child, out);
  }
  return out;
}

describe('examples validate against their schemas', () => {
  let samples: Sample[] = [];
  let derefDoc: Json = {};
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);

  beforeAll(async () => {
    const raw = parse(readFileSync(specPath, 'utf8')) as Json;
    const deref = (await SwaggerParser.dereference(structuredClone(raw) as never)) as unknown;
    if (!isObject(deref)) throw new Error('dereferenced document is not an object');
    derefDoc = deref;
    const components = isObject(deref.components) ? deref.components : {};
    samples = [
      ...collectOperationSamples(deref),
      ...collectSchemaSamples('#/components/schemas', components.schemas),
    ];
  });

  it('finds examples for every operation body and 200 response', () => {
    expect(samples.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const [path, item] of entries(derefDoc.paths)) {
      for (const [method, op] of entries(item)) {
        const at = `${method.toUpperCase()} ${path}`;
        const bodies = isObject(op.requestBody) ? entries(op.requestBody.content) : [];
        const ok = isObject(op.responses) ? op.responses['200'] : undefined;
        const oks = isObject(ok) ? entries(ok.content) : [];
        for (const [mediaType, media] of [...bodies, ...oks]) {
          if (!isObject(media.examples) || !isObject(media.examples.default)) {
            missing.push(`${at} ${mediaType}`);
          }
        }
        if (oks.length === 0) missing.push(`${at} 200 has no content`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every example is valid', () => {
    const failures: string[] = [];
    for (const sample of samples) {
      if (sample.schema === undefined) {
        failures.push(`${sample.where}: no schema`);
        continue;
      }
      const validate = ajv.compile(sample.schema as Json);
      if (!validate(sample.value)) {
        failures.push(`${sample.where}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
