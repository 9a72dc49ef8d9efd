/**
 * `dataapi diff` and a deprecated operation's life cycle: deprecating is reported, removing it
 * before its sunset is breaking and from then on is not, removing one never deprecated (or
 * deprecated without a sunset) stays breaking; the changelog and SARIF renderings, and lint's
 * SARIF, which validate as SARIF 2.1.0.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSpecs, formatReport } from '../../generator/diff/index.ts';
import { formatSarif } from '../../generator/lint/format.ts';
import { lintSpec } from '../../generator/lint/index.ts';
import { NEWS, root, tempDir, V1, V2, variant } from './helpers.ts';
import { sarifProblems } from './sarif-check.ts';

const BEFORE = '2026-11-26';
const brief = (r: Awaited<ReturnType<typeof diffSpecs>>) =>
  r.changes.map((c) => `${c.severity} ${c.code} ${c.operation} ${c.side} ${c.pointer}`);

const dir = tempDir('lifecycle-diff');
const withoutV1 = variant(dir, 'without-v1', (d) => d.deleteIn(['paths', '/v1/news']));
const noLifecycle = (d: Parameters<Parameters<typeof variant>[2]>[0]) => {
  for (const k of [
    'deprecated',
    'x-dataapi-deprecated-since',
    'x-dataapi-sunset',
    'x-dataapi-successor',
  ])
    d.deleteIn([...V1, k]);
};

describe('dataapi diff and the sunset', () => {
  it('reports deprecating an operation as compatible, with its sunset and successor', async () => {
    const live = variant(dir, 'live', noLifecycle);
    const report = await diffSpecs({ base: live, head: NEWS, today: BEFORE });
    expect(brief(report)).toEqual([
      'compatible api-operation-deprecated listNews head /paths/~1v1~1news/get/deprecated',
    ]);
    expect(report.changes[0]!.message).toBe(
      'GET /v1/news is now deprecated (sunset 2027-06-30; successor listNewsV2)',
    );
  });

  it('calls a removal before the sunset breaking, and from the sunset on compatible', async () => {
    const before = await diffSpecs({ base: NEWS, head: withoutV1, today: BEFORE });
    expect(brief(before)).toEqual([
      'breaking api-removed-before-sunset listNews base /paths/~1v1~1news/get/x-dataapi-sunset',
    ]);
    expect(before.summary.breaking).toBe(1);
    expect(before.changes[0]!.line).toBeGreaterThan(0);
    expect(before.changes[0]!.message).toContain('before its sunset 2027-06-30');
    for (const today of ['2027-06-30', '2031-01-01']) {
      const after = await diffSpecs({ base: NEWS, head: withoutV1, today });
      expect(brief(after)).toEqual([
        'compatible api-removed-after-sunset listNews base /paths/~1v1~1news/get/x-dataapi-sunset',
      ]);
      expect(after.summary.breaking).toBe(0);
    }
  });

  it('keeps removing an operation never deprecated, or deprecated without a sunset, breaking', async () => {
    // v2 goes, and v1 no longer names it as its successor.
    const withoutV2 = variant(dir, 'without-v2', (d) => {
      d.deleteIn(['paths', '/v2/news']);
      d.deleteIn([...V1, 'x-dataapi-successor']);
    });
    const removed = await diffSpecs({ base: NEWS, head: withoutV2, today: '2031-01-01' });
    expect(brief(removed)).toContain(
      'breaking api-operation-removed listNewsV2 base /paths/~1v2~1news/get',
    );
    const noSunset = variant(dir, 'no-sunset', (d) => d.deleteIn([...V1, 'x-dataapi-sunset']));
    const early = await diffSpecs({ base: noSunset, head: withoutV1, today: '2031-01-01' });
    expect(brief(early)).toEqual([
      'breaking api-operation-removed listNews base /paths/~1v1~1news/get',
    ]);
    void V2;
  });
});

describe('changelog and SARIF', () => {
  async function mixed() {
    // v1 removed before its sunset, v2 deprecated and given a new optional parameter.
    const head = variant(dir, 'mixed', (d) => {
      d.deleteIn(['paths', '/v1/news']);
      d.setIn([...V2, 'deprecated'], true);
      d.setIn([...V2, 'parameters'], [{ name: 'page', in: 'query', schema: { type: 'integer' } }]);
    });
    return { head, report: await diffSpecs({ base: NEWS, head, today: BEFORE }) };
  }

  it('writes release notes grouped by operation, then by severity', async () => {
    const { report } = await mixed();
    const text = formatReport(report, 'changelog');
    expect(text).toBe(
      [
        `# API changes: ${report.base} → ${report.head}`,
        '',
        '1 breaking, 0 that may break strict clients, 2 compatible.',
        '',
        '## GET /v1/news (listNews)',
        '',
        '### Breaking',
        '',
        '- GET /v1/news (listNews) was removed before its sunset 2027-06-30 (today is 2026-11-26): callers were promised it until then `api-removed-before-sunset`',
        '',
        '## GET /v2/news (listNewsV2)',
        '',
        '### Compatible',
        '',
        '- GET /v2/news is now deprecated `api-operation-deprecated`',
        '- optional query parameter page was added `request-parameter-added`',
        '',
      ].join('\n'),
    );
  });

  it('writes SARIF 2.1.0 with the file, line and rule of each change', async () => {
    const { report, head } = await mixed();
    const text = formatReport(report, 'sarif');
    expect(sarifProblems(text)).toEqual([]);
    const log = JSON.parse(text);
    const results = log.runs[0].results;
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      'api-operation-deprecated',
      'api-removed-before-sunset',
      'request-parameter-added',
    ]);
    const headUri = path.relative(process.cwd(), head).split(path.sep).join('/');
    expect(results[0]).toMatchObject({
      ruleId: 'api-removed-before-sunset',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: headUri } } }],
    });
    // A removal is in BASE: located at the file, its BASE line named in the message.
    expect(results[0].locations[0].physicalLocation.region).toBeUndefined();
    expect(results[0].message.text).toMatch(/\(in BASE .*news\.yaml:\d+\)$/);
    const deprecated = results.find(
      (r: { ruleId: string }) => r.ruleId === 'api-operation-deprecated',
    );
    const line = readFileSync(head, 'utf8').split('\n')[
      deprecated.locations[0].physicalLocation.region.startLine - 1
    ];
    expect(line).toContain('deprecated: true');
    expect(deprecated.level).toBe('note');
  });

  it('refuses what is not SARIF (the check can fail)', () => {
    const good = JSON.stringify({
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'x', rules: [{ id: 'a' }] } }, results: [] }],
    });
    expect(sarifProblems(good)).toEqual([]);
    const bad = (edit: (log: any) => void) => {
      const log = JSON.parse(good);
      edit(log);
      return sarifProblems(JSON.stringify(log));
    };
    expect(bad((l) => (l.version = '2.0.0'))).not.toEqual([]);
    // The OASIS schema's own enums, which the stricter part does not repeat.
    expect(bad((l) => (l.runs[0].results = [{ message: { text: 'x' }, kind: 'bogus' }]))).toContain(
      'OASIS schema: /runs/0/results/0/kind must be equal to one of the allowed values',
    );
    expect(
      bad((l) => (l.runs[0].results = [{ ruleId: 'a', level: 'fatal', message: { text: 'x' } }])),
    ).not.toEqual([]);
    expect(
      bad(
        (l) =>
          (l.runs[0].results = [
            {
              ruleId: 'a',
              message: { text: 'x' },
              locations: [
                { physicalLocation: { artifactLocation: { uri: 'a' }, region: { startLine: 0 } } },
              ],
            },
          ]),
      ),
    ).not.toEqual([]);
    expect(
      bad((l) => (l.runs[0].results = [{ ruleId: 'b', ruleIndex: 0, message: { text: 'x' } }])),
    ).toEqual(['/runs/0/results/0: ruleIndex 0 is not rule b']);
    expect(bad((l) => (l.runs[0].tool.driver.rule = []))).not.toEqual([]);
  });

  it('lint writes SARIF 2.1.0 too, at the line and column of each finding', async () => {
    const report = await lintSpec(NEWS, { today: '2027-07-01' });
    const text = formatSarif(report);
    expect(sarifProblems(text)).toEqual([]);
    const result = JSON.parse(text).runs[0].results[0];
    expect(result).toMatchObject({
      ruleId: 'deprecation-sunset',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'test/fixtures/lifecycle/news.yaml' },
            region: {
              startLine: report.findings[0]!.line,
              startColumn: report.findings[0]!.column,
            },
          },
          logicalLocations: [{ fullyQualifiedName: 'listNews' }],
        },
      ],
    });
  });

  it('goes to --output FILE from the command line (diff and lint)', () => {
    const out = path.join(dir, 'diff.sarif');
    const run = (args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'bin/dataapi.js'), ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    const diff = run([
      'diff',
      NEWS,
      withoutV1,
      '--format',
      'sarif',
      '--output',
      out,
      '--today',
      BEFORE,
    ]);
    expect(diff.status, diff.stderr).toBe(1);
    expect(diff.stdout).toBe('');
    expect(sarifProblems(readFileSync(out, 'utf8'))).toEqual([]);
    const after = run(['diff', NEWS, withoutV1, '--format', 'changelog', '--today', '2027-07-01']);
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain('`api-removed-after-sunset`');
    expect(run(['diff', NEWS, withoutV1, '--today', '2027-7-1']).status).toBe(2);
    const lint = run(['lint', '--spec', NEWS, '--format', 'sarif', '--today', '2027-07-01']);
    expect(lint.status).toBe(1);
    expect(sarifProblems(lint.stdout)).toEqual([]);
  });
});
