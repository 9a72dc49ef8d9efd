/**
 * OpenAPI links: the normaliser resolves them to operations (operationId, a local operationRef,
 * qualified parameter names), reports the ones it cannot follow, and derives the link of an
 * `x-dataapi-async` submit; runtime expressions read the source request and answer.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import {
  evaluate,
  followUp,
  reachable,
  responseBodyTokens,
  type LinkSource,
} from '../../contract-tests/links.ts';
import type { Exchange } from '../../contract-tests/http.ts';
import { model as service } from '../../generated/model.ts';
import { failedOf, reportDir, runCli } from './harness.ts';

async function modelOf(name: string, doc: object): Promise<ServiceModel> {
  const file = path.join(reportDir('links'), `${name}.json`);
  await writeFile(file, JSON.stringify(doc));
  return normalise(await loadSpec(file));
}

const ok = { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } };
const itemPath = {
  get: {
    operationId: 'getItem',
    parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'string' } }],
    responses: { '200': ok },
  },
};

describe('links in the model', () => {
  it('resolves operationId and operationRef links, and reports the rest as findings', async () => {
    const model = await modelOf('links', {
      openapi: '3.1.0',
      info: { title: 'links', version: '1' },
      paths: {
        '/items': {
          post: {
            operationId: 'createItem',
            responses: {
              '201': {
                ...ok,
                links: {
                  ById: { operationId: 'getItem', parameters: { itemId: '$response.body#/id' } },
                  ByRef: {
                    operationRef: '#/paths/~1items~1{itemId}/get',
                    parameters: { 'path.itemId': '$response.body#/id' },
                  },
                  Nowhere: { operationId: 'noSuchOperation' },
                  Odd: { operationId: 'getItem', parameters: { color: 'red' } },
                },
              },
            },
          },
        },
        '/items/{itemId}': itemPath,
      },
    });
    const create = model.operations.find((o) => o.id === 'createItem')!;
    const links = create.responses.find((r) => r.status === '201')!.links!;
    expect(links.map((l) => [l.name, l.target])).toEqual([
      ['ById', 'getItem'],
      ['ByRef', 'getItem'],
      ['Odd', 'getItem'],
    ]);
    expect(links[1]!.parameters).toEqual([
      { in: 'path', name: 'itemId', value: '$response.body#/id' },
    ]);
    expect(links[2]!.parameters).toEqual([]);
    expect(model.findings.map((f) => [f.code, f.pointer])).toEqual(
      expect.arrayContaining([
        ['link-unresolved', '/paths/~1items/post/responses/201/links/Nowhere'],
        ['link-unknown-parameter', '/paths/~1items/post/responses/201/links/Odd/parameters/color'],
      ]),
    );
  });

  it('derives the link of an x-dataapi-async submit that has none', async () => {
    const model = await modelOf('async', {
      openapi: '3.1.0',
      info: { title: 'async', version: '1' },
      paths: {
        '/jobs': {
          post: {
            operationId: 'submitJob',
            responses: { '200': ok },
            'x-dataapi-async': { role: 'submit', partner: 'getJob' },
          },
        },
        '/jobs/{jobId}': {
          get: {
            operationId: 'getJob',
            parameters: [{ name: 'jobId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': ok },
            'x-dataapi-async': { role: 'status', partner: 'submitJob' },
          },
        },
      },
    });
    const submit = model.operations.find((o) => o.id === 'submitJob')!;
    expect(submit.success!.links).toEqual([
      {
        name: 'x-dataapi-async',
        target: 'getJob',
        parameters: [{ in: 'path', name: 'jobId', value: '$response.body#/operationId' }],
        pointer: '/paths/~1jobs/post/x-dataapi-async',
      },
    ]);
  });

  it("the service's submit-then-poll pair and upload round trip are links of its description", () => {
    const submit = service.operations.find((o) => o.id === 'submitDocumentExtraction')!;
    expect(submit.success!.links!.map((l) => [l.name, l.target])).toEqual([
      ['GetTask', 'getDocumentExtractionTask'],
    ]);
    const upload = service.operations.find((o) => o.id === 'uploadKnowledgeBaseDocuments')!;
    expect(upload.success!.links![0]).toMatchObject({
      name: 'UploadMore',
      target: 'uploadKnowledgeBaseDocuments',
      requestBody: '$request.body',
    });
  });
});

describe('runtime expressions', () => {
  const src: LinkSource = {
    spec: {
      name: 'x',
      path: { id: 'p1' },
      query: { q: 'find me' },
      header: { 'X-Trace': 't-9' },
      cookie: {},
      body: { a: { 'b/c': [10, 20] } },
    },
    method: 'post',
    url: 'http://127.0.0.1:1/items/p1',
    exchange: {
      record: { status: 201 },
      headers: { location: '/items/n7' },
      json: { Data: { operationId: 'op_1', 'we~ird': true }, list: [{ id: 'first' }] },
    } as unknown as Exchange,
  };

  it('reads the request and the answer', () => {
    expect(evaluate('$response.body#/Data/operationId', src)).toBe('op_1');
    expect(evaluate('$response.body#/Data/we~0ird', src)).toBe(true);
    expect(evaluate('$response.body#/list/0/id', src)).toBe('first');
    expect(evaluate('$response.header.Location', src)).toBe('/items/n7');
    expect(evaluate('$request.path.id', src)).toBe('p1');
    expect(evaluate('$request.query.q', src)).toBe('find me');
    expect(evaluate('$request.header.x-trace', src)).toBe('t-9');
    expect(evaluate('$request.body#/a/b~1c/1', src)).toBe(20);
    expect(evaluate('$request.body', src)).toEqual({ a: { 'b/c': [10, 20] } });
    expect(evaluate('$statusCode', src)).toBe(201);
    expect(evaluate('$method', src)).toBe('POST');
    expect(evaluate('$url', src)).toBe('http://127.0.0.1:1/items/p1');
    expect(evaluate('items/{$request.path.id}/{$response.body#/list/0/id}', src)).toBe(
      'items/p1/first',
    );
    expect(evaluate(42, src)).toBe(42);
    expect(evaluate('plain', src)).toBe('plain');
  });

  it('finds nothing where the source has nothing, and says which expressions', () => {
    expect(evaluate('$response.body#/Data/missing', src)).toBeUndefined();
    expect(evaluate('$request.query.none', src)).toBeUndefined();
    expect(evaluate('x/{$response.body#/nope}', src)).toBeUndefined();
    const link = {
      name: 'L',
      target: 't',
      parameters: [
        { in: 'path' as const, name: 'id', value: '$response.body#/Data/operationId' },
        { in: 'query' as const, name: 'x', value: '$response.body#/absent' },
      ],
      pointer: '/',
    };
    const base = { name: 'b', path: { id: 'old' }, query: {}, header: {}, cookie: {} };
    const { spec, missing } = followUp(link, src, base);
    expect(spec.path).toEqual({ id: 'op_1' });
    expect(missing).toEqual(['$response.body#/absent']);
    expect(base.path).toEqual({ id: 'old' });
  });
});

describe('a link the description contradicts', () => {
  // planted.yaml: createNote's answer `id` is any string, getNote's noteId must match ^n[0-9]+$.
  // The mock's sampled id does not fit: the description's fault, not the mock's.
  it('is a link-value-mismatch warning with its pointer, not a failure, against the own mock', async () => {
    const run = await runCli(
      'contract',
      [
        '--spec',
        'test/fixtures/fuzz/planted.yaml',
        '--only',
        'createNote,getNote',
        '--allow-writes',
        '--report-dir',
        reportDir('link-mismatch'),
      ],
      'link-mismatch',
    );
    expect(failedOf(run), run.stdout.slice(-2000)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.result!.warnings!.filter((w) => w.code === 'link-value-mismatch');
    expect(warnings.map((w) => w.pointer)).toEqual([
      '/paths/~1notes/post/responses/201/links/GetNote',
    ]);
    expect(warnings[0]!.message).toMatch(/noteId=".*" \(.*must match pattern/);
    // getNote falls back to its example, which the mock knows nothing of: still judged.
    expect(
      run.result!.results.find((r) => r.operation === 'getNote' && r.check === 'status')!.status,
    ).toBe('passed');
  });
});

describe('a link that reads what its answer cannot hold', () => {
  it('reachable: follows properties, items and choices; refuses wrong shapes and closed objects', () => {
    const repo = {
      type: 'object',
      properties: {
        slug: { type: 'string' },
        owner: { type: 'object', properties: { username: { type: 'string' } } },
      },
    };
    const list = { type: 'array', items: repo };
    expect(reachable(service, repo, ['owner', 'username'])).toBe(true);
    expect(reachable(service, list, ['0', 'slug'])).toBe(true);
    expect(reachable(service, list, ['owner', 'username'])).toBe(false);
    expect(reachable(service, repo, ['slug', 'x'])).toBe(false);
    expect(reachable(service, { ...repo, additionalProperties: false }, ['other'])).toBe(false);
    expect(reachable(service, repo, ['other'])).toBe(true);
    expect(reachable(service, { oneOf: [list, repo] }, ['owner'])).toBe(true);
    expect(responseBodyTokens('$response.body#/owner/username')).toEqual(['owner', 'username']);
    expect(responseBodyTokens('$response.body')).toEqual([]);
    expect(responseBodyTokens('$request.path.id')).toBeUndefined();
  });

  // @readme/oas-examples' link-example (the OpenAPI specification's own): a list of repositories
  // whose link reads `$response.body#/owner/username` as if the answer were one repository.
  it('is a link-expression-unresolvable warning, not a failure', async () => {
    const run = await runCli(
      'contract',
      [
        '--spec',
        'node_modules/@readme/oas-examples/3.0/json/link-example.json',
        '--only',
        'getRepositoriesByOwner',
        '--report-dir',
        reportDir('link-unresolvable'),
      ],
      'link-unresolvable',
    );
    expect(failedOf(run), run.stdout.slice(-2000)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const w = run.result!.warnings!.filter((x) => x.code === 'link-expression-unresolvable');
    expect(w.map((x) => x.pointer)).toEqual([
      '/paths/~12.0~1repositories~1{username}/get/responses/200/links/userRepository',
    ]);
  });
});
