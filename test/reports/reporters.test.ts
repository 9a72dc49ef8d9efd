/**
 * The reporters, rendered from the committed results of a real failing run (fixture.ts): the console
 * matrix and failure details (coverage: coverage.test.ts), JUnit XML, the JSON report and the HTML page, their escaping of
 * hostile text, and that none of them carries the key.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { model } from '../../generated/model.ts';
import { CHECKS, type ContractRunResult } from '../../contract-tests/results.ts';
import {
  buildReport,
  renderConsole,
  renderHtml,
  renderJson,
  renderJUnit,
  reporterError,
  vitestReporters,
  writeReports,
} from '../../contract-tests/reports/index.ts';
import { CHECK_ABBREVIATIONS } from '../../contract-tests/reports/report.ts';
import { ProgressReporter } from '../../contract-tests/reports/progress.ts';
import { html, xmlAttr, xmlText } from '../../contract-tests/reports/escape.ts';
import { EXPECTED_FAILURES, HOSTILE, loadFixture } from './fixture.ts';

const report = () => buildReport(loadFixture(), model);

/** The fixture with hostile text where the target or the spec could put it. */
function hostile(): ContractRunResult {
  const r = loadFixture();
  const f = r.results.find((x) => x.operation === 'getAirQuality' && x.check === 'schema')!;
  f.message = `line one\nline two ${HOSTILE}`;
  f.actual = HOSTILE;
  f.excerpt = HOSTILE;
  f.errors = [`/Data/0/AQI ${HOSTILE}`];
  f.exchanges[0]!.excerpt = HOSTILE;
  r.errors = [`a file failed to load: ${HOSTILE}`];
  return r;
}

describe('console report', () => {
  const text = renderConsole(report());
  const lines = text.split('\n');

  it('draws the matrix: each known failure in its operation row and check column', () => {
    const header = lines.find((l) => l.startsWith('operation'))!;
    const column = (check: (typeof CHECKS)[number]) =>
      header.indexOf(` ${CHECK_ABBREVIATIONS[check]}`) + 2;
    const row = (label: string) => lines.find((l) => l.startsWith(`${label} `))!;
    for (const [op, variant, check] of EXPECTED_FAILURES) {
      const label = variant === 'main' ? op : `${op} (preview)`;
      expect(row(label)[column(check)], `${label} ${check}`).toBe('✗');
    }
    expect(row('getAirQuality')[column('status')]).toBe('✓');
    expect(row('getAirQuality')[column('paging')]).toBe('·');
    expect(row('getAirQuality (preview)')[column('negative')]).toBe(' ');
  });

  it('says why a row is skipped whole (an operation that writes, without --allow-writes)', () => {
    const r = loadFixture();
    for (const x of r.results.filter(
      (x) => x.operation === 'getAirQuality' && x.variant === 'main',
    )) {
      x.status = 'skipped';
      x.message = 'writes: run with --allow-writes';
    }
    const out = renderConsole(buildReport(r, model)).split('\n');
    const row = out.find((l) => l.startsWith('getAirQuality '))!;
    expect(row).toMatch(/^getAirQuality +(· +){13}skipped: writes: run with --allow-writes$/);
    // A row with anything but one shared skip reason says nothing more.
    expect(out.find((l) => l.startsWith('getAirQuality (preview) '))).not.toContain('skipped:');
  });

  it('counts one operation and one request in the singular', () => {
    const r = loadFixture();
    r.results = r.results.filter((x) => x.operation === 'getAirQuality' && x.variant === 'main');
    r.summary = { ...r.summary, requests: 1 };
    const out = renderConsole(buildReport(r, model));
    expect(out).toMatch(/\(1 operation, 1 request[,)]/);
  });

  it("prints each failure's request (key redacted), expected, actual and Ajv error path", () => {
    const at = lines.findIndex((l) => l.includes('✗ getAirQuality · schema'));
    const block = lines.slice(at, at + 8).join('\n');
    expect(block).toMatch(
      /request: {2}GET http:\/\/127\.0\.0\.1:4010\/Weather\/AirQuality\?.*appkey=\*\*\*/,
    );
    expect(block).toContain('expected: body valid against the 200 schema');
    expect(block).toMatch(
      /actual: {3}\/Data\/0\/DataStatus must be equal to one of the allowed values/,
    );
    expect(block).toMatch(/error: {4}valid request \(example\): \/Data\/0\/DataStatus/);
    expect(text).toContain('Failures (19)');
  });

  it('prints totals and coverage totals', () => {
    expect(text).toMatch(
      /Checks: 144 passed, 19 failed, 30 skipped \(11 operations, 79 requests, 429 retries: 1/,
    );
    expect(text).toMatch(
      /Coverage: operations 11\/11 \(100%\), previews 5\/5 \(100%\), HTTP statuses \d+\/110 \(\d+%\), business codes \d+\/13/,
    );
    expect(text).toMatch(/never reached codes of group A: 102, 103, 110/);
  });

  it('colours only when asked', () => {
    expect(text).not.toContain('\x1b');
    expect(renderConsole(report(), { color: true })).toContain('\x1b[31m✗\x1b[0m');
  });

  it('cannot be rewritten by hostile text: control characters visible, no injected lines', () => {
    const out = renderConsole(buildReport(hostile(), model));
    expect(out).not.toMatch(/[\u0000\u001b]/);
    expect(out).toContain('\\u001b[31m');
    expect(out).toContain('line one\\nline two');
    expect(out.split('\n').filter((l) => l.startsWith('line two'))).toEqual([]);
  });
});

describe('JUnit report', () => {
  const xml = renderJUnit(report());
  const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );

  it('has one test case per operation, variant and check', () => {
    expect(cases).toHaveLength(loadFixture().results.length);
    expect(new Set(cases).size).toBe(cases.length);
    expect(cases).toContain('getAirQuality schema');
    expect(cases).toContain('getAirQuality.preview content-type');
    expect(xml).toMatch(
      /<testsuites name="dataapi contract" tests="193" failures="19" errors="0" skipped="30"/,
    );
    expect(xml.match(/<skipped /g)).toHaveLength(30);
  });

  it('gives each failure its message and details', () => {
    const m =
      /<testcase classname="getAirQuality" name="schema"[^>]*>\s*<failure message="([^"]*)" type="schema">([^<]*)<\/failure>/.exec(
        xml,
      );
    expect(m).not.toBeNull();
    expect(m![1]).toMatch(/^schema: valid request \(example\): expected body valid/);
    expect(m![2]).toMatch(
      /request: {2}GET http:\/\/127\.0\.0\.1:4010\/Weather\/AirQuality\?.*appkey=\*\*\*/,
    );
    expect(m![2]).toContain('expected: body valid against the 200 schema');
    expect(m![2]).toContain('/Data/0/DataStatus must be equal to one of the allowed values');
    expect(m![2]).toMatch(/response: HTTP 200, application\/json/);
  });

  it('carries coverage as properties', () => {
    expect(xml).toContain('<property name="coverage.operations" value="11/11 (100%)"/>');
    expect(xml).toMatch(/getAirQuality: 403, 415, 429, 500, 502/);
  });

  it('escapes hostile text for XML, control characters included', () => {
    const out = renderJUnit(buildReport(hostile(), model));
    expect(out).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
    expect(out).not.toContain(']]>');
    expect(out).toContain('&lt;img src=x onerror=window.__pwned=2&gt;&lt;/script&gt;');
    expect(out).toContain('\\u0000\\u001b[31m');
    // A line break inside an attribute survives attribute normalisation as a reference.
    expect(out).toContain('message="schema: line one&#10;line two');
    // Errors outside any check are <error> test cases, so CI fails on them too.
    expect(out).toMatch(/<error message="a file failed to load: &lt;img/);
  });
});

describe('toolkit faults', () => {
  /** The fixture with one request the suite built wrong (contract-tests/recheck.ts), hostile text in it. */
  const withFault = () => {
    const r = loadFixture();
    r.toolkitFaults = [
      {
        code: 'toolkit-fault',
        operation: 'getAirQuality',
        check: 'negative',
        purpose: `negative: header User-Agent missing (required) ${HOSTILE}`,
        request: { method: 'GET', url: '/Weather/AirQuality?city=Beijing' },
        expected: 'a 4xx refusal',
        actual: 'HTTP 200',
        message: 'the request as sent is valid: fetch adds User-Agent',
      },
    ];
    // As a run writes it: the check's own, which reports read (the run's list repeats them).
    const check = r.results.find(
      (x) => x.operation === 'getAirQuality' && x.variant === 'main' && x.check === 'negative',
    )!;
    check.toolkitFaults = r.toolkitFaults;
    return buildReport(r, model);
  };

  it('JUnit: one passing test case per fault in a suite of its own, never a failure', () => {
    const out = renderJUnit(withFault());
    const suite =
      /<testsuite name="dataapi toolkit faults" tests="1" failures="0"[^>]*>([\s\S]*?)<\/testsuite>/.exec(
        out,
      );
    expect(suite, out.slice(-2000)).not.toBeNull();
    expect(suite![1]).toContain('classname="toolkit-fault.getAirQuality" name="negative"');
    expect(suite![1]).toMatch(
      /<system-out>toolkit fault \(not a failure of the target\): negative: header User-Agent missing/,
    );
    expect(suite![1]).not.toContain('<failure');
    expect(out).not.toContain('<img');
    expect(renderJUnit(report())).not.toContain('dataapi toolkit faults');
  });

  it('HTML: a section of its own listing the fault, escaped', () => {
    const page = renderHtml(withFault());
    const section = /<section class="warnings" id="toolkit-faults">([\s\S]*?)<\/section>/.exec(
      page,
    );
    expect(section).not.toBeNull();
    expect(section![1]).toContain('Toolkit faults (1)');
    expect(section![1]).toContain('GET /Weather/AirQuality?city=Beijing');
    expect(section![1]).toContain('expected a 4xx refusal, got HTTP 200');
    expect(section![1]).not.toContain('<img');
    expect(renderHtml(report())).not.toContain('id="toolkit-faults"');
  });
});

describe('HTML report', () => {
  it('escapes hostile text: the only script is the page own, allowed by its CSP hash', () => {
    const page = renderHtml(buildReport(hostile(), model));
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(page).toContain(
      '&lt;img src=x onerror=window.__pwned=2&gt;&lt;/script&gt;&lt;script&gt;',
    );
    expect(page).not.toMatch(/[\u0000\u001b]/);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    // The policy sits in an attribute: its quotes are escaped like every attribute value.
    expect(page).toContain(`script-src &#39;sha256-${hash}&#39;`);
    expect(page).toContain('default-src &#39;none&#39;');
  });

  it('is self-contained: nothing is loaded from anywhere', () => {
    const page = renderHtml(report());
    expect(page).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(page).not.toMatch(/<[a-z]+\s[^>]*\b(src|href)="?(https?:|\/\/|data:)/i);
    expect(page).not.toMatch(/url\(/i);
  });

  it('links each failed cell to its expandable failure', () => {
    const page = renderHtml(report());
    const cell =
      /<tr data-operation="getAirQuality" data-variant="main"[^>]*>.*?<td class="failed" data-check="schema" data-status="failed" data-failure="(f-\d+)"/.exec(
        page,
      );
    expect(cell).not.toBeNull();
    expect(page).toMatch(
      new RegExp(
        `<details class="failure" id="${cell![1]}" data-operation="getAirQuality" data-variant="main" data-check="schema">`,
      ),
    );
  });
});

describe('JSON report', () => {
  it('is the run result plus checks and coverage, stable across renders', () => {
    const text = renderJson(report());
    expect(renderJson(report())).toBe(text);
    const json = JSON.parse(text);
    const fixture = loadFixture();
    expect(Object.keys(json)).toEqual([
      ...Object.keys(fixture),
      'reportVersion',
      'checks',
      'coverageReport',
    ]);
    expect(json.results).toEqual(fixture.results);
    expect(json.reportVersion).toBe(1);
    expect(json.checks.map((c: { name: string }) => c.name)).toEqual([...CHECKS]);
    expect(json.coverageReport.totals.operations).toEqual({ covered: 11, total: 11 });
  });
});

describe('the key', () => {
  // Characters that each escaping (URL, JSON, XML, HTML) writes differently.
  const KEY = `Sentinel Key/42+zz&"<'`;
  /** The fixture with the key wherever a careless runner or target could have put it. */
  function leaky(): ContractRunResult {
    const r = loadFixture();
    const enc = encodeURIComponent(KEY);
    r.target.baseUrl = `http://127.0.0.1:4010/?appkey=${enc}`;
    for (const x of r.results) {
      x.message += ` ${KEY}`;
      if (x.request) x.request.url += `&appkey=${enc}`;
      x.errors.push(`echo ${new URLSearchParams({ appkey: KEY }).toString()}`);
      x.errors.push(`echo ${encodeURI(KEY)}`);
      for (const e of x.exchanges) e.excerpt = `{"echo":"${KEY}"}`;
    }
    r.errors.push(`cannot reach ${KEY}`);
    return r;
  }
  const forms = [
    KEY,
    encodeURIComponent(KEY),
    encodeURIComponent(KEY).replace(/%20/g, '+'),
    JSON.stringify(KEY).slice(1, -1),
    html(KEY),
    xmlAttr(KEY),
    xmlText(KEY),
    new URLSearchParams({ k: KEY }).toString().slice(2),
    encodeURI(KEY),
    'Sentinel Key',
    'Sentinel+Key',
    'Sentinel%20Key',
  ];

  it('appears in no report', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-reports-'));
    let printed = '';
    const out = new Writable({
      write(chunk, _enc, done) {
        printed += String(chunk);
        done();
      },
    });
    await writeReports(leaky(), {
      model,
      reporters: ['console', 'junit', 'json', 'html'],
      dir,
      root: dir,
      out,
      secrets: [KEY],
    });
    const files = await readdir(dir);
    expect(files.sort()).toEqual([
      'contract-junit.xml',
      'contract-report.html',
      'contract-results.json',
    ]);
    const texts = [
      printed,
      ...(await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')))),
    ];
    for (const t of texts) for (const form of forms) expect(t).not.toContain(form);
    expect(printed).toContain('***');
  });
});

describe('reporter names', () => {
  it('maps ours to a compact progress line per file and passes vitest names through', () => {
    const progress = (names?: string[]) => {
      const r = vitestReporters(names);
      return r.length === 1 && r[0] instanceof ProgressReporter;
    };
    expect(progress(undefined)).toBe(true);
    expect(progress(['console', 'junit'])).toBe(true);
    expect(progress(['junit', 'html'])).toBe(true);
    expect(vitestReporters(['default', 'junit'])).toEqual(['default']);
    expect(vitestReporters(['verbose', 'vitest-junit', 'vitest-json'])).toEqual([
      'verbose',
      'junit',
      'json',
    ]);
    const withFiles = vitestReporters(['console', 'vitest-junit']);
    expect(withFiles[0]).toBeInstanceOf(ProgressReporter);
    expect(withFiles.slice(1)).toEqual(['junit']);
  });

  it('refuses an unknown name with the list of known ones', () => {
    expect(
      reporterError(['console', 'junit', 'json', 'html', 'dot', 'github-actions']),
    ).toBeUndefined();
    expect(reporterError(['./my-reporter.ts'])).toBeUndefined();
    expect(reporterError(['xml'])).toMatch(
      /unknown reporter "xml" \(ours: console, junit, json, html/,
    );
  });
});

describe('words of the reports', () => {
  const negative = () =>
    buildReport(loadFixture(), model).results.find(
      (x) => x.check === 'negative' && x.status === 'failed',
    )!;

  it('a failure title names its check once (no "negative: negative:")', () => {
    expect(negative().message).toMatch(/^negative: query pageSize=21/);
    const r = report();
    for (const text of [renderConsole(r, { color: false }), renderJUnit(r), renderHtml(r)]) {
      expect(text).toContain('negative: query pageSize=21');
      expect(text).not.toContain('negative: negative:');
    }
  });

  it('the "failed" total is red only when something failed', () => {
    const badge = (page: string) => /<li class="([^"]*)">(\d+) failed<\/li>/.exec(page)!;
    expect(badge(renderHtml(report()))[1]).toBe('failed');
    const clean = loadFixture();
    clean.results = clean.results.filter((x) => x.status !== 'failed');
    clean.summary.failed = 0;
    const none = badge(renderHtml(buildReport(clean, model)));
    expect(none[2]).toBe('0');
    expect(none[1]).not.toBe('failed');
  });

  it('the HTML report says when no key was set against a deployment, where operations needed one', () => {
    const without = loadFixture();
    without.target.keyProvided = false;
    // No operation went untested for want of a key (a description without security): no note.
    expect(renderHtml(buildReport(without, model))).not.toContain('No key was set');
    without.results[0] = {
      ...without.results[0]!,
      status: 'skipped',
      notTested: 'no-credentials',
      message: 'not tested (no-credentials): the operation needs a credential',
    };
    expect(renderHtml(buildReport(without, model))).toContain(
      'No key was set (DATAAPI_APPKEY was empty)',
    );
    const withKey = loadFixture();
    withKey.target.keyProvided = true;
    expect(renderHtml(buildReport(withKey, model))).not.toContain('No key was set');
    const mock = loadFixture();
    mock.target = { ...mock.target, embeddedMock: true, keyProvided: false };
    expect(renderHtml(buildReport(mock, model))).not.toContain('No key was set');
  });

  it('one JSON file: the results file is the JSON report, with or without --reporter json', async () => {
    for (const reporters of [['json', 'html'], ['html']]) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'dataapi-reports-'));
      const resultsFile = path.join(dir, 'run', 'results.json');
      const { files } = await writeReports(loadFixture(), {
        model,
        reporters,
        dir,
        root: dir,
        out: new Writable({ write: (_c, _e, done) => done() }),
        secrets: [],
        resultsFile,
      });
      expect(files.map((f) => path.relative(dir, f)).sort()).toEqual([
        'contract-report.html',
        path.join('run', 'results.json'),
      ]);
      expect((await readdir(dir)).sort()).toEqual(['contract-report.html', 'run']);
      const json = JSON.parse(await readFile(resultsFile, 'utf8'));
      expect(json.reportVersion).toBe(1);
      expect(json.coverageReport.totals.operations).toEqual({ covered: 11, total: 11 });
      expect(json.results).toEqual(loadFixture().results);
    }
  });
});
