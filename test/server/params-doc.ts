/**
 * The inline OpenAPI 3.1 document params.test.ts serves: parameters of every style, coercion,
 * header parameters, odd names, literal colons, optional and form bodies, JSON under other media
 * types and multipart forms with JSON parts.
 */
const intList = { type: 'array', items: { type: 'integer' } };
const point = {
  type: 'object',
  required: ['x'],
  properties: { x: { type: 'integer' }, y: { type: 'integer' } },
};

// Once parsed, JSON is validated as it is: coerced as text, "a" would fit both options.
const tagged = {
  ...point,
  properties: {
    ...point.properties,
    tag: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
  },
};

export const doc = {
  openapi: '3.1.0',
  info: { title: 'params', version: '1' },
  paths: {
    '/w/{workflow-id}': {
      get: {
        operationId: 'getWorkflow',
        parameters: [
          {
            name: 'workflow-id',
            in: 'path',
            required: true,
            schema: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
          },
          { name: 'n', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          {
            name: 'X-Trace',
            in: 'header',
            required: true,
            schema: { type: 'string', minLength: 3 },
          },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/things:batch': {
      post: {
        operationId: 'batch',
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { a: { type: 'integer' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/styles/{ids}': {
      post: {
        operationId: 'styles',
        parameters: [
          { name: 'ids', in: 'path', required: true, schema: intList },
          { name: 'size_range', in: 'query', explode: false, schema: intList },
          {
            name: 'pipes',
            in: 'query',
            style: 'pipeDelimited',
            explode: false,
            schema: { type: 'array', items: { type: 'string' } },
          },
          { name: 'filter', in: 'query', style: 'deepObject', schema: point },
          { name: 'point', in: 'query', schema: point },
          { name: 'mdfilters', in: 'query', schema: { type: 'array', items: tagged } },
          { name: 'meta', in: 'query', content: { 'application/json': { schema: point } } },
          { name: 'X-Ids', in: 'header', schema: intList },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { description: 'any JSON value' } } },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/patch': {
      patch: {
        operationId: 'patch',
        requestBody: {
          required: true,
          content: {
            'application/json-patch+json': {
              schema: { type: 'array', items: { type: 'object', required: ['op'] } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/label/{ids}/{point}/{name}': {
      get: {
        operationId: 'prefixed',
        parameters: [
          { name: 'ids', in: 'path', required: true, style: 'label', schema: intList },
          {
            name: 'point',
            in: 'path',
            required: true,
            style: 'matrix',
            explode: true,
            schema: point,
          },
          {
            name: 'name',
            in: 'path',
            required: true,
            style: 'matrix',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/accounts': {
      post: {
        operationId: 'account',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['id', 'name'],
                properties: {
                  id: { allOf: [{ type: 'string' }], readOnly: true },
                  name: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['attributes', 'file'],
                properties: {
                  attributes: point,
                  file: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/form': {
      post: {
        operationId: 'form',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
            },
          },
        },
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
};
