/**
 * The HTML report in a real browser (headless Chromium through playwright-core): built from the
 * fixture of a real failing run, it must show the known failure in the right cell of the grid
 * (operation row x check column), expand it to its request when the cell is clicked, run none of
 * the hostile markup a response carried, load nothing from the network, and render sensibly
 * (screenshots in a reports-browser folder in the run's scratch folder under test/.work, kept
 * with KEEP_WORK=1).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { model } from '../../generated/model.ts';
import { buildReport, renderHtml, renderJUnit } from '../../contract-tests/reports/index.ts';
import { chromiumOrFail, launch } from './browser.ts';
import { removeWork, workDir } from '../work.ts';
import { EXPECTED_FAILURES, loadFixture } from './fixture.ts';

const chromium = chromiumOrFail();

describe.skipIf(!chromium)(
  `HTML report in headless Chromium${chromium ? '' : ' (skipped locally: no chromium found; CI fails instead)'}`,
  () => {
    let page: Page;
    let close: () => Promise<void>;
    const requests: string[] = [];
    const dialogs: string[] = [];
    const cspViolations: string[] = [];
    let file = '';

    beforeAll(async () => {
      file = path.join(workDir('reports-browser'), 'contract-report.html');
      const report = buildReport(loadFixture(), model);
      await writeFile(file, renderHtml(report));
      await writeFile(path.join(path.dirname(file), 'contract-junit.xml'), renderJUnit(report));
      const browser = await launch(chromium!);
      close = browser.close;
      page = await browser.context.newPage();
      page.on('request', (r) => requests.push(r.url()));
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      await page.goto(pathToFileURL(file).href);
      const headings = await page.locator('#matrix thead th').allInnerTexts();
      columns = new Map(headings.map((h, i) => [h.trim(), i + 1]));
    });
    afterAll(async () => {
      await close?.();
      if (file) removeWork(path.dirname(file));
    });

    /** Column numbers of the checks, read from the grid's header as a reader sees it. */
    let columns: Map<string, number>;
    /** The cell under a check's column heading in an operation's row (by position, not by label). */
    const cell = (operation: string, variant: string, check: string) =>
      page.locator(
        `#matrix tbody tr[data-operation="${operation}"][data-variant="${variant}"] > :nth-child(${columns.get(check)})`,
      );

    it('shows each known failure in its operation row and check column, and only those', async () => {
      for (const [op, variant, check] of EXPECTED_FAILURES)
        expect(
          await cell(op, variant, check).getAttribute('class'),
          `${op} ${variant} ${check}`,
        ).toBe('failed');
      // Cells of the same row and column that did not fail are not red.
      expect(await cell('getAirQuality', 'main', 'status').getAttribute('class')).toBe('passed');
      expect(await cell('getFundBasicInfo', 'main', 'schema').getAttribute('class')).toBe('passed');
      expect(await cell('getAirQuality', 'main', 'paging').getAttribute('class')).toBe('skipped');
      // The preview variant has no negative cases: a blank cell, not a pass.
      expect(await cell('getAirQuality', 'preview', 'negative').getAttribute('class')).toBe('none');
      // The red cell's colour is really rendered (CSS applied, not only a class name).
      const bg = await cell('getAirQuality', 'main', 'schema').evaluate(
        (el) => getComputedStyle(el).backgroundColor,
      );
      expect(bg).toBe('rgb(183, 28, 28)');
      await page.screenshot({ path: path.join(path.dirname(file), 'html-report-grid.png') });
      const failedCells = await page.locator('#matrix td.failed').count();
      expect(failedCells).toBe(loadFixture().results.filter((r) => r.status === 'failed').length);
    });

    it('expands a failure to its request and response excerpt when its cell is clicked', async () => {
      const target = cell('getAirQuality', 'main', 'schema');
      const id = await target.getAttribute('data-failure');
      expect(id).toMatch(/^f-\d+$/);
      const details = page.locator(`details#${id}`);
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect(await details.locator('pre.request').isVisible()).toBe(false);
      await target.click();
      expect(await details.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      expect(await details.getAttribute('data-operation')).toBe('getAirQuality');
      expect(await details.getAttribute('data-check')).toBe('schema');
      const request = details.locator('pre.request');
      expect(await request.isVisible()).toBe(true);
      expect(await request.innerText()).toMatch(
        /^GET http:\/\/127\.0\.0\.1:4010\/Weather\/AirQuality\?.*appkey=\*\*\*$/,
      );
      expect(await details.locator('pre.response').innerText()).toContain('"DataStatus"');
      expect(await details.innerText()).toContain('/Data/0/DataStatus must be equal to one of');
      await page.screenshot({
        path: path.join(path.dirname(file), 'html-report.png'),
        fullPage: false,
      });
      await details.screenshot({ path: path.join(path.dirname(file), 'html-report-failure.png') });
    });

    it("runs the page's own script (allowed by its CSP hash): expand and collapse all", async () => {
      const open = () =>
        page
          .locator('details.failure')
          .evaluateAll((ds) => ds.filter((d) => (d as HTMLDetailsElement).open).length);
      await page.locator('button[data-toggle="open"]').click();
      expect(await open()).toBe(await page.locator('details.failure').count());
      await page.locator('button[data-toggle="close"]').click();
      expect(await open()).toBe(0);
    });

    it('shows hostile response text as text and runs none of it', async () => {
      const excerpt = await page
        .locator('details[data-operation="getAirQuality"][data-check="schema"] pre.excerpt')
        .textContent();
      expect(excerpt).toContain('<img src=x onerror=window.__pwned=2></script><script>');
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(dialogs).toEqual([]);
    });

    it('is self-contained: no request but the page itself, no blocked script', async () => {
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(cspViolations).toEqual([]);
    });

    it('shows the coverage summary', async () => {
      const ops = await page.locator('#coverage tr[data-coverage="operations"]').innerText();
      expect(ops).toMatch(/11 \/ 11/);
      await page.locator('#never-reached > summary').click();
      expect(await page.locator('#never-reached').innerText()).toMatch(
        /HTTP statuses of getAirQuality:\s*403\s*415\s*429\s*500\s*502/,
      );
    });

    it('the JUnit report is well-formed XML (the browser parses it)', async () => {
      const xml = renderJUnit(buildReport(loadFixture(), model));
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const error = doc.querySelector('parsererror');
        return {
          error: error?.textContent ?? null,
          cases: doc.querySelectorAll('testcase').length,
          failures: Array.from(doc.querySelectorAll('testcase'))
            .filter((t) => t.querySelector('failure'))
            .map((t) => `${t.getAttribute('classname')} ${t.getAttribute('name')}`),
        };
      }, xml);
      expect(parsed.error).toBeNull();
      expect(parsed.cases).toBe(loadFixture().results.length);
      expect(parsed.failures).toContain('getAirQuality schema');
      expect(parsed.failures).toContain('getAirQuality.preview content-type');
    });
  },
);
