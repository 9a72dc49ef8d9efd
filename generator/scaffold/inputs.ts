/** The inputs of a scaffolded operation: its parameters and JSON body, with example values. */
import type { Obj } from '../../model/object.ts';
import type { FieldSpec, ScaffoldRequest } from './request.ts';

function sampleValue(field: FieldSpec): unknown {
  switch (field.type) {
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return `example ${field.name}`.slice(0, 40);
  }
}

export function parametersFor(params: FieldSpec[], pathNames: string[]): Obj[] {
  return params.map((f) => ({
    name: f.name,
    in: pathNames.includes(f.name) ? 'path' : 'query',
    ...(f.required || pathNames.includes(f.name) ? { required: true } : {}),
    schema: { type: f.type },
    example: sampleValue(f),
  }));
}

/** A JSON object body of the `--body-field`s, or undefined when there are none. */
export function requestBodyFor(req: ScaffoldRequest): Obj | undefined {
  const fields = req.bodyFields;
  if (fields.length === 0) return undefined;
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const schema = {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(fields.map((f) => [f.name, { type: f.type }])),
  };
  const value = Object.fromEntries(fields.map((f) => [f.name, sampleValue(f)]));
  return {
    required: true,
    content: {
      'application/json': {
        schema,
        examples: { default: { summary: 'Every field of the body', value } },
      },
    },
  };
}
