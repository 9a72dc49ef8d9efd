/**
 * `dataapi serve --example-handlers` as a staging stand-in: a real serve process (keys file,
 * in-process limits, /docs on) whose operations answer from the description's examples.
 * - The generated contract suite, run by `dataapi contract --base-url` as QA runs it (a child
 *   process, real HTTP, writes allowed), passes with 0 failures against it (issue 15's proof; a
 *   whole suite run, paced under every declared rate limit: about a minute).
 * - The API reference at /docs renders in headless Chromium: Swagger UI with the description's
 *   title and every operation, an operation expands to its parameters, and the page loads
 *   nothing from anywhere but the server itself.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { model } from '../../generated/model.ts';
import { failedOf, runCli } from '../contract/harness.ts';
import { chromiumOrFail, launch } from '../reports/browser.ts';
import { ROOT, startServe, type ServeProcess } from './helpers.ts';

// The run's own folder: keys, an empty handlers folder, reports and screenshots. Never the
// repository's handlers/, which the README's scaffold example fills.
const WORK = path.join(tmpdir(), `dataapi-serve-examples-${process.pid}`);
const KEY = 'staging-key-5b1e';
const chromium = chromiumOrFail();

let serve: ServeProcess;
beforeAll(async () => {
  await mkdir(path.join(WORK, 'handlers'), { recursive: true });
  const keys = path.join(WORK, 'keys.txt');
  await writeFile(keys, `${KEY}\n`);
  serve = await startServe([
    '--keys-file',
    keys,
    '--handlers',
    path.join(WORK, 'handlers'),
    // Named, not defaulted: /docs shows the description generated/ was made from.
    '--spec',
    path.join(ROOT, 'spec/openapi.yaml'),
    '--example-handlers',
    '--log-level',
    'warn',
  ]);
});
afterAll(async () => {
  await serve?.stop();
  await rm(WORK, { recursive: true, force: true });
});

describe('serve --example-handlers', () => {
  it('says which operations answer from the examples', () => {
    const count = model.operations.length;
    expect(serve.stderr()).toContain(
      `operations: ${count} (0 with a handler, ${count} answered from the description's examples)`,
    );
  });

  it('passes the whole contract suite (dataapi contract --base-url, writes allowed)', async () => {
    const run = await runCli(
      'contract',
      ['--base-url', serve.url, '--allow-writes', '--report-dir', path.join(WORK, 'reports')],
      'serve-examples',
      { DATAAPI_APPKEY: KEY },
    );
    const tail = run.stdout.slice(-3000) + run.stderr.slice(-2000);
    expect(failedOf(run), tail).toEqual([]);
    expect(run.result?.errors, tail).toEqual([]);
    expect(run.code, tail).toBe(0);
    const r = run.result!;
    expect(r.target).toMatchObject({ baseUrl: serve.url, embeddedMock: false, keyProvided: true });
    expect(new Set(r.results.map((x) => x.operation)).size).toBe(model.operations.length);
    expect(r.summary.passed).toBeGreaterThan(model.operations.length * 8);
    // The key reached serve (the auth checks passed) and never its log.
    expect(serve.stdout() + serve.stderr()).not.toContain(KEY);
  }, 300_000);
});

describe.skipIf(!chromium)(
  `/docs in headless Chromium${chromium ? '' : ' (skipped locally: no chromium found; CI fails instead)'}`,
  () => {
    let page: Page;
    let close: () => Promise<void>;
    const requests: string[] = [];
    const errors: string[] = [];
    beforeAll(async () => {
      const browser = await launch(chromium!, { offline: false });
      close = browser.close;
      page = await browser.context.newPage();
      page.on('request', (r) => requests.push(r.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${serve.url}/docs`);
    });
    afterAll(async () => {
      await close?.();
    });

    it("shows the description's title and every operation", async () => {
      await page.locator('.swagger-ui .info .title').waitFor({ timeout: 300_000 }); // a safety net, not a limit
      expect(await page.locator('.swagger-ui .info .title').innerText()).toContain(model.title);
      const previews = model.operations.filter((o) => o.preview?.explicit).length;
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock').count()).toBe(model.operations.length + previews);
      await mkdir(WORK, { recursive: true });
      await page.screenshot({ path: path.join(WORK, 'docs.png') });
    });

    it('expands an operation to its parameters', async () => {
      const air = page.locator(
        '.opblock:has(.opblock-summary-path[data-path="/Weather/AirQuality"])',
      );
      await air.locator('.opblock-summary').first().click();
      const params = air.locator('.parameters .parameter__name');
      await params.first().waitFor();
      const names = (await params.allInnerTexts()).map((n) => n.replace(/\s*\*.*$/s, '').trim());
      expect(names).toEqual(expect.arrayContaining(['city', 'location', 'lang']));
      await air.screenshot({ path: path.join(WORK, 'docs-operation.png') });
    });

    it('loads everything from the server itself, without a script error', () => {
      const origins = new Set(requests.map((u) => new URL(u).origin));
      expect([...origins]).toEqual([serve.url]);
      expect(requests.some((u) => u.endsWith('/docs/json'))).toBe(true);
      expect(errors).toEqual([]);
    });
  },
);
