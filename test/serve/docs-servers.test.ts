/**
 * /docs lists the running server first, so Swagger UI's "Try it out" reaches it (the
 * description's own server is a placeholder, https://api.dataapi.invalid). Swagger UI resolves a
 * relative server URL against the document's address; this test does the same with URL().
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../../runtime/server/app.ts';
import { model } from '../../generated/model.ts';
import { ROOT } from './helpers.ts';

let close: (() => Promise<void>) | undefined;
afterAll(async () => close?.());

describe('/docs', () => {
  it("lists this server first, and a request built from it reaches this server's operation", async () => {
    const document = parse(await readFile(path.join(ROOT, 'spec/openapi.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    const { app } = await createServiceApp({
      model,
      handlers: {},
      insecureAnyKey: true,
      document,
      logLevel: 'silent',
    });
    close = () => app.close();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const docsJson = `${base}/docs/json`;
    const shown = (await (await fetch(docsJson)).json()) as { servers: { url: string }[] };
    expect(shown.servers.map((s) => s.url)).toEqual(['/', '{base_url}']);
    // "Try it out" on the first server: the URL resolves against the document's address.
    const target = new URL(`${shown.servers[0]!.url.replace(/\/$/, '')}/v2/location/ip`, docsJson);
    target.searchParams.set('ip', '1.1.1.1');
    target.searchParams.set('appkey', 'any');
    expect(target.origin).toBe(new URL(base).origin);
    const answer = await fetch(target);
    expect(answer.status).toBe(501); // this server's operation, without a handler here
    await answer.arrayBuffer();
  });
});
