/**
 * A short DATAAPI_APPKEY (`k`, `test`, `demo`, `100`) never damages a report: redaction rewrites
 * values, never names or structure. The committed run (fixture.ts) is rendered by every reporter
 * with the short key as the secret and compared with the same run rendered without one.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import {
  buildReport,
  renderConsole,
  renderHtml,
  renderJson,
  renderJUnit,
  writeReports,
} from '../../contract-tests/reports/index.ts';
import { loadFixture } from './fixture.ts';

const plain = buildReport(loadFixture(), model, []);
const render = (secret: string) => {
  const r = buildReport(loadFixture(), model, [secret]);
  return {
    console: renderConsole(r),
    junit: renderJUnit(r),
    json: renderJson(r),
    html: renderHtml(r),
  };
};
const before = {
  console: renderConsole(plain),
  junit: renderJUnit(plain),
  json: renderJson(plain),
  html: renderHtml(plain),
};

/** Every key path of a JSON value (the structure, without the values). */
function shape(v: unknown, at = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => shape(x, `${at}/${i}`));
  if (typeof v === 'object' && v !== null)
    return Object.entries(v).flatMap(([k, x]) => [`${at}/${k}`, ...shape(x, `${at}/${k}`)]);
  return [];
}

describe('a short key leaves every report intact', () => {
  // The run's values hold none of these as a token of their own: nothing may change at all.
  for (const key of ['k', 'test', 'demo', 'main']) {
    it(`${JSON.stringify(key)}: every report is byte-identical to the run without a key`, () => {
      const after = render(key);
      expect(after.console).toBe(before.console);
      expect(after.junit).toBe(before.junit);
      expect(after.json).toBe(before.json);
      expect(after.html).toBe(before.html);
    });
  }

  it('"100" (a business code of the run): values may be hidden, names and structure stay', () => {
    const after = render('100');
    // The matrix, the totals and the coverage percentages are untouched.
    const structural = (text: string) =>
      text
        .split('\n')
        .filter((l) => !/^\s+(✗|request|expected|actual|error|value|response)/.test(l));
    expect(structural(after.console)).toEqual(structural(before.console));
    expect(after.console).toContain('(100%)');
    // JUnit stays well-formed XML with the same test cases and coverage properties.
    expect(XMLValidator.validate(after.junit)).toBe(true);
    const cases = (xml: string) => [...xml.matchAll(/<testcase [^>]*>/g)].map((m) => m[0]);
    expect(cases(after.junit)).toEqual(cases(before.junit));
    expect(after.junit).toContain('value="11/11 (100%)"');
    // JSON: the same keys everywhere, the same names.
    const json = JSON.parse(after.json);
    expect(shape(json)).toEqual(shape(JSON.parse(before.json)));
    expect(json.results.map((r: { check: string }) => r.check)).toEqual(
      plain.results.map((r) => r.check),
    );
    // Preview URLs keep their /demo path; the key's own query value is hidden.
    expect(
      json.results.some((r: { request?: { url: string } }) => r.request?.url.includes('/demo?')),
    ).toBe(true);
    const coverageRows = (html: string) => html.match(/<tr data-coverage=[^\n]*?<\/tr>/g);
    expect(coverageRows(after.html)).toEqual(coverageRows(before.html));
    expect(after.html).toContain('<td>100%</td>');
  });
});

describe('the files and the console output of a run with a short key', () => {
  async function written(secret: string): Promise<Record<string, string>> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-short-key-'));
    let out = '';
    const sink = new Writable({
      write(chunk: Buffer, _e, done) {
        out += chunk.toString();
        done();
      },
    });
    await writeReports(loadFixture(), {
      model,
      reporters: ['console', 'junit', 'json', 'html'],
      dir,
      root: dir,
      out: sink,
      secrets: [secret],
    });
    const files: Record<string, string> = { out };
    for (const f of ['contract-junit.xml', 'contract-results.json', 'contract-report.html'])
      files[f] = await readFile(path.join(dir, f), 'utf8');
    return files;
  }

  it('"test" and "k": the same bytes as without a key (well-formed JUnit, intact matrix)', async () => {
    const none = await written('');
    for (const key of ['test', 'k']) {
      const files = await written(key);
      expect(XMLValidator.validate(files['contract-junit.xml']!)).toBe(true);
      expect(files).toEqual(none);
    }
  });
});
