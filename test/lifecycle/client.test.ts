/**
 * The client and a deprecated operation: `onDeprecated` is told exactly once per operation (from
 * the description, or from an answer's Deprecation header), the default is one process warning,
 * and the generated types carry `@deprecated` with the sunset day and the successor.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceModel } from 'dataapi/model';
import { createMock } from 'dataapi/runtime/mock';
import { createRuntimeClient, type DeprecationNotice } from 'dataapi/runtime/client';
import { loadSpec } from '../../generator/load.ts';
import { normalise } from '../../generator/normalise/index.ts';
import { removeWork, workDir } from '../work.ts';
import { NEWS, root } from './helpers.ts';

let model: ServiceModel;
let baseUrl: string;
let close: () => Promise<unknown>;
beforeAll(async () => {
  model = normalise(await loadSpec(NEWS));
  const app = await createMock(model);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  close = () => app.close();
});
afterAll(() => close?.());

describe('onDeprecated', () => {
  it('is told once per deprecated operation, with its sunset and successor', async () => {
    const notices: DeprecationNotice[] = [];
    const client = createRuntimeClient(model, {
      baseUrl,
      rateLimit: false,
      onDeprecated: (n) => notices.push(n),
    });
    for (let i = 0; i < 3; i++) await client.call('listNews');
    await client.call('listNewsV2');
    expect(notices).toEqual([
      {
        operation: 'listNews',
        request: 'GET /v1/news',
        source: 'description',
        since: '2026-01-15',
        sunset: '2027-06-30',
        successor: 'listNewsV2',
        message:
          'listNews (GET /v1/news) is deprecated since 2026-01-15 and may be removed from 2027-06-30; use listNewsV2 instead',
      },
    ]);
  });

  it('learns of a deprecation from the answer when the description does not say it', async () => {
    const app = Fastify({ logger: false });
    app.get('/v2/news', async (_req, reply) =>
      reply
        .header('deprecation', '@1767225600')
        .header('link', '</v3/news>; rel="successor-version"')
        .send({ items: [] }),
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const notices: DeprecationNotice[] = [];
      const client = createRuntimeClient(model, {
        baseUrl: url,
        rateLimit: false,
        onDeprecated: (n) => notices.push(n),
      });
      await client.call('listNewsV2');
      await client.call('listNewsV2');
      expect(notices).toMatchObject([
        {
          operation: 'listNewsV2',
          source: 'response',
          since: '@1767225600',
          successor: '/v3/news',
        },
      ]);
    } finally {
      await app.close();
    }
  });

  it('defaults to a single process warning per operation', async () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      // Two clients, several calls: one warning.
      for (const client of [1, 2].map(() =>
        createRuntimeClient(model, { baseUrl, rateLimit: false }),
      ))
        for (let i = 0; i < 2; i++) await client.call('listNews');
      await createRuntimeClient(model, { baseUrl, rateLimit: false }).call('listNewsV2');
      expect(emit.mock.calls).toEqual([
        [
          expect.stringContaining('listNews (GET /v1/news) is deprecated'),
          { type: 'DeprecationWarning', code: 'DATAAPI_DEPRECATED' },
        ],
      ]);
      // false silences it.
      emit.mockClear();
      await createRuntimeClient(model, { baseUrl, onDeprecated: false }).call('listNews');
      expect(emit).not.toHaveBeenCalled();
    } finally {
      emit.mockRestore();
    }
  });
});

describe('the generated client', () => {
  // Inside the project, so the generated client resolves dataapi/*.
  const out = workDir('lifecycle-client');
  beforeAll(() => {
    const gen = spawnSync(
      process.execPath,
      // Without generate's own type-check: the test compiles the client itself, below.
      [
        'bin/dataapi.js',
        'generate',
        '--no-typecheck',
        '--spec',
        NEWS,
        '--out',
        out,
        '--kinds',
        'client',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(gen.status, gen.stderr).toBe(0);
  });
  afterAll(() => removeWork(out));

  it('carries @deprecated with the sunset day and the successor to the method', () => {
    const text = readFileSync(path.join(out, 'client/index.ts'), 'utf8');
    const tag =
      '@deprecated Since 2026-01-15. Sunset 2027-06-30: it may be removed from that day. Use `listNewsV2` instead.';
    expect(text).toContain(tag);
    // What an editor shows on `client.listNews`: the tag reaches the method through Client.
    const consumer = path.join(out, 'consumer.ts');
    writeFileSync(
      consumer,
      "import { createClient } from './client/index.ts';\n" +
        "const client = createClient({ baseUrl: 'http://127.0.0.1:1' });\n" +
        'void client.listNews;\nvoid client.listNewsV2;\n',
    );
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const program = ts.createProgram([consumer], config.options);
    const checker = program.getTypeChecker();
    const tags: Record<string, string[]> = {};
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const symbol = checker.getSymbolAtLocation(node.name);
        tags[node.name.text] = (symbol?.getJsDocTags(checker) ?? []).map(
          (t) => `@${t.name} ${ts.displayPartsToString(t.text)}`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(program.getSourceFile(consumer)!);
    expect(tags['listNews']).toEqual([tag]);
    expect(tags['listNewsV2']).toEqual([]);
    // openapi-typescript marks the deprecated parameter and property.
    const types = readFileSync(path.join(out, 'types.ts'), 'utf8');
    expect(types.match(/@deprecated/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
