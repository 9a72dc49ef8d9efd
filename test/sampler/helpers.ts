/** A model of any description (load + normalise, nothing written) and every schema in it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allParameters, type JsonSchema, type ServiceModel } from 'dataapi/model';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const THIRD_PARTY = path.join(ROOT, 'test/fixtures/third-party');

export async function modelOf(file: string): Promise<ServiceModel> {
  return normalise(await loadSpec(file));
}

/** A minimal model around some component schemas (for focused cases). */
export function tinyModel(defs: Record<string, JsonSchema>): ServiceModel {
  return {
    title: 't',
    version: '1',
    openapi: '3.1.0',
    servers: [],
    categories: [],
    operations: [],
    businessCodeGroups: [],
    defaultRateLimit: { limit: 10, per: 'second', windowMs: 1000, source: 'default' },
    schemaRoot: { $id: 'urn:dataapi:spec', $defs: defs },
  } as unknown as ServiceModel;
}

export const ref = (name: string): JsonSchema => ({ $ref: `urn:dataapi:spec#/$defs/${name}` });

export interface Located {
  where: string;
  schema: JsonSchema;
  direction: 'request' | 'response';
}

/** Every component schema, parameter, request body and response schema of a model. */
export function everySchema(model: ServiceModel): Located[] {
  const out: Located[] = [];
  const defs = (model.schemaRoot.$defs ?? {}) as Record<string, JsonSchema>;
  for (const name of Object.keys(defs))
    out.push({
      where: `$defs/${name}`,
      schema: { $ref: `urn:dataapi:spec#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}` },
      direction: 'response',
    });
  for (const op of model.operations) {
    for (const p of allParameters(op.parameters))
      out.push({ where: `${op.id} ${p.in} ${p.name}`, schema: p.schema, direction: 'request' });
    if (op.body) out.push({ where: `${op.id} body`, schema: op.body.schema, direction: 'request' });
    for (const r of op.responses)
      if (r.schema)
        out.push({ where: `${op.id} ${r.status}`, schema: r.schema, direction: 'response' });
  }
  return out;
}
