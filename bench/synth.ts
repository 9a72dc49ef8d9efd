/**
 * A deterministic synthetic OpenAPI 3.1 description of N operations, for the scaling benchmark.
 *
 * Every 5 operations form one resource (list, get, create, update, delete) with its own component
 * schemas, so the description grows linearly with N: no shared giant schema, no randomness. The
 * schemas use what real descriptions use (enums, formats, ranges, nullable type arrays, nested
 * objects, arrays, `$ref`, `allOf`, `oneOf`), so the generator's per-operation cost is realistic.
 *
 * CLI: `npx tsx bench/synth.ts 200 test/.work/synth-200.json`
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

type Obj = Record<string, unknown>;

const pad = (n: number) => String(n).padStart(4, '0');

function resourceSchemas(r: number): Record<string, Obj> {
  const name = `Resource${pad(r)}`;
  return {
    [name]: {
      type: 'object',
      description: `Resource ${r} of the synthetic catalogue.`,
      required: ['id', 'name', 'status', 'createdAt'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string', minLength: 1, maxLength: 120 },
        status: { type: 'string', enum: ['draft', 'active', 'archived'] },
        score: { type: 'number', minimum: 0, maximum: 1 },
        count: { type: 'integer', minimum: 0 },
        createdAt: { type: 'string', format: 'date-time' },
        note: { type: ['string', 'null'], maxLength: 500 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        owner: {
          type: 'object',
          required: ['login'],
          properties: {
            login: { type: 'string' },
            email: { type: 'string', format: 'email' },
          },
        },
        detail: {
          oneOf: [
            { $ref: `#/components/schemas/${name}Text` },
            { $ref: `#/components/schemas/${name}Link` },
          ],
        },
      },
    },
    [`${name}Text`]: {
      type: 'object',
      required: ['kind', 'text'],
      properties: { kind: { const: 'text' }, text: { type: 'string' } },
    },
    [`${name}Link`]: {
      type: 'object',
      required: ['kind', 'url'],
      properties: { kind: { const: 'link' }, url: { type: 'string', format: 'uri' } },
    },
    [`${name}Input`]: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 120 },
        status: { type: 'string', enum: ['draft', 'active', 'archived'], default: 'draft' },
        note: { type: ['string', 'null'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    [`${name}Page`]: {
      allOf: [
        { $ref: '#/components/schemas/PageInfo' },
        {
          type: 'object',
          required: ['items'],
          properties: { items: { type: 'array', items: { $ref: `#/components/schemas/${name}` } } },
        },
      ],
    },
  };
}

const example = (r: number) => ({
  id: `00000000-0000-4000-8000-${String(r).padStart(12, '0')}`,
  name: `Resource ${r}`,
  status: 'active',
  score: 0.5,
  count: r,
  createdAt: '2025-01-01T00:00:00Z',
  note: null,
  tags: ['synthetic'],
  owner: { login: 'qa', email: 'qa@example.com' },
  detail: { kind: 'text', text: 'example' },
});

const json = (schema: Obj, ex?: unknown) => ({
  'application/json': { schema, ...(ex !== undefined ? { example: ex } : {}) },
});

const errors = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '404': { $ref: '#/components/responses/NotFound' },
};

function resourcePaths(r: number, ops: number): Record<string, Obj> {
  const name = `Resource${pad(r)}`;
  const tag = `Group ${Math.floor(r / 10)}`;
  const base = `/group${Math.floor(r / 10)}/resources${pad(r)}`;
  const ref = (s: string) => ({ $ref: `#/components/schemas/${s}` });
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  const all: [string, string, Obj][] = [
    [
      base,
      'get',
      {
        operationId: `list${name}`,
        summary: `List resource ${r}`,
        tags: [tag],
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          {
            name: 'pageSize',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
          },
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['draft', 'active', 'archived'] },
          },
        ],
        responses: {
          '200': {
            description: 'A page',
            content: json(ref(`${name}Page`), { page: 1, total: 1, items: [example(r)] }),
          },
          ...errors,
        },
      },
    ],
    [
      `${base}/{id}`,
      'get',
      {
        operationId: `get${name}`,
        summary: `Get resource ${r}`,
        tags: [tag],
        parameters: [idParam],
        responses: {
          '200': { description: 'The resource', content: json(ref(name), example(r)) },
          ...errors,
        },
      },
    ],
    [
      base,
      'post',
      {
        operationId: `create${name}`,
        summary: `Create resource ${r}`,
        tags: [tag],
        requestBody: {
          required: true,
          content: json(ref(`${name}Input`), { name: `Resource ${r}` }),
        },
        responses: {
          '201': { description: 'Created', content: json(ref(name), example(r)) },
          ...errors,
        },
      },
    ],
    [
      `${base}/{id}`,
      'put',
      {
        operationId: `update${name}`,
        summary: `Update resource ${r}`,
        tags: [tag],
        parameters: [idParam],
        requestBody: {
          required: true,
          content: json(ref(`${name}Input`), { name: `Resource ${r}` }),
        },
        responses: {
          '200': { description: 'Updated', content: json(ref(name), example(r)) },
          ...errors,
        },
      },
    ],
    [
      `${base}/{id}`,
      'delete',
      {
        operationId: `delete${name}`,
        summary: `Delete resource ${r}`,
        tags: [tag],
        parameters: [idParam],
        responses: { '204': { description: 'Deleted' }, ...errors },
      },
    ],
  ];
  const paths: Record<string, Obj> = {};
  for (const [p, method, op] of all.slice(0, ops)) (paths[p] ??= {})[method] = op;
  return paths;
}

/** The description of `operations` operations (any positive number; 5 per resource). */
export function synthSpec(operations: number): Obj {
  const schemas: Record<string, Obj> = {
    PageInfo: {
      type: 'object',
      required: ['page', 'total'],
      properties: { page: { type: 'integer', minimum: 1 }, total: { type: 'integer', minimum: 0 } },
    },
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  };
  const paths: Record<string, Obj> = {};
  const tags = new Set<string>();
  for (let r = 0, left = operations; left > 0; r++, left -= 5) {
    Object.assign(schemas, resourceSchemas(r));
    for (const [p, item] of Object.entries(resourcePaths(r, Math.min(5, left))))
      paths[p] = { ...(paths[p] ?? {}), ...item };
    tags.add(`Group ${Math.floor(r / 10)}`);
  }
  const errorResponse = (description: string) => ({
    description,
    content: json({ $ref: '#/components/schemas/Error' }, { code: 1, message: description }),
  });
  return {
    openapi: '3.1.0',
    info: {
      title: `Synthetic catalogue (${operations} operations)`,
      version: '1.0.0',
      description: 'Generated by bench/synth.ts for the generation scaling benchmark.',
    },
    servers: [{ url: 'https://synthetic.example.com/v1' }],
    tags: [...tags].map((name) => ({ name, description: `Operations of ${name}.` })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas,
      responses: { BadRequest: errorResponse('Bad request'), NotFound: errorResponse('Not found') },
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [count, file] = process.argv.slice(2);
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1 || !file) {
    process.stderr.write('Usage: npx tsx bench/synth.ts <operations> <out.json>\n');
    process.exit(2);
  }
  await writeFile(file, JSON.stringify(synthSpec(n), null, 2) + '\n');
}
