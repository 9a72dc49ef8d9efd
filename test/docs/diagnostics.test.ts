/**
 * The diagnostics catalogue (model/diagnostics.ts) and the page generated from it: the committed
 * docs/diagnostics.md is what scripts/docs/diagnostics.ts writes now, every lint and diff rule id
 * comes from the catalogue, and the documents that name codes name catalogued ones.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT as ROOT } from '../../generator/root.ts';
import { RULES as LINT_RULES } from '../../generator/lint/index.ts';
import { RULES as DIFF_RULES } from '../../generator/diff/index.ts';
import {
  CATALOGUE,
  CHECK_DIAGNOSTICS,
  isDiagnosticCode,
  severityOf,
  type Finding,
  type WarningCode,
} from '../../model/index.ts';
import { CHECKS } from '../../contract-tests/checks/definitions.ts';
import { DIAGNOSTICS_PAGE, renderDiagnostics } from '../../scripts/docs/diagnostics.ts';

// A code the catalogue lacks does not compile where findings are built (tsc checks this file: the
// directives fail it if the codes ever widen to string).
// @ts-expect-error not a catalogued code
const unknownFinding: Finding = { code: 'no-such-code', message: '', file: '', pointer: '' };
// @ts-expect-error the contract's old name of example-invalid
const oldName: WarningCode = 'invalid-example';
void unknownFinding;
void oldName;

describe('the diagnostics catalogue', () => {
  it('docs/diagnostics.md is the page generated from it (npx tsx scripts/docs/diagnostics.ts)', async () => {
    const committed = await readFile(DIAGNOSTICS_PAGE, 'utf8');
    expect(committed).toBe(await renderDiagnostics());
  });

  it('lists every lint and diff rule, with the titles the SARIF output shows', () => {
    for (const [id, title] of Object.entries(LINT_RULES))
      expect(CATALOGUE[id as keyof typeof CATALOGUE].title).toBe(title);
    for (const [id, rule] of Object.entries(DIFF_RULES))
      expect(CATALOGUE[id as keyof typeof CATALOGUE]).toBe(rule);
    expect(Object.keys(LINT_RULES)).toContain('example-invalid');
  });

  it('gives every code a severity, a title and what to do', () => {
    for (const [code, e] of Object.entries(CATALOGUE)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(e.title.length, code).toBeGreaterThan(0);
      expect(e.action.length, code).toBeGreaterThan(0);
      expect(e.sources.length, code).toBeGreaterThan(0);
    }
  });

  it('names the norm of every code but the diff rules (the clause, the section, or why there is none)', () => {
    const without = Object.entries(CATALOGUE)
      .filter(([, e]) => !(e.sources as readonly string[]).includes('diff'))
      .filter(([, e]) => ((e as { norm?: string }).norm ?? '').trim().length === 0)
      .map(([code]) => code);
    expect(without).toEqual([]);
  });

  it("holds every check with the norm it enforces, and decides every verdict's severity", () => {
    expect(Object.keys(CHECK_DIAGNOSTICS).sort()).toEqual([...CHECKS].sort());
    for (const check of CHECKS) {
      expect(CATALOGUE[check].norm, check).toMatch(
        /OpenAPI|RFC|service|--max-response-time|paging|page/,
      );
      expect(severityOf(check, undefined)).toBe('failure');
    }
    for (const code of ['undeclared-status', 'undeclared-content', 'undocumented'] as const)
      expect(severityOf(code, undefined), code).toBe('warning');
    for (const code of ['no-credentials', 'missing-test-data', 'toolkit-fault'] as const)
      expect(severityOf(code, undefined), code).toBe('not-tested');
    // lint's own scale is not a run's: example-invalid is an error to lint, a warning in a run.
    expect(CATALOGUE['example-invalid'].severity).toBe('error');
    expect(severityOf('example-invalid', undefined)).toBe('warning');
    // The user's setting wins, both ways.
    expect(severityOf('method-path', { 'method-path': 'warning' })).toBe('warning');
    expect(severityOf('undeclared-content', { 'undeclared-content': 'failure' })).toBe('failure');
    expect(severityOf('schema', { schema: 'off' })).toBe('off');
  });

  it('is the only vocabulary of the lint rule table in docs/integrators.md', async () => {
    const page = await readFile(path.join(ROOT, 'docs/integrators.md'), 'utf8');
    const text = page.slice(page.indexOf('| Rule id')).split('\n\n')[0]!;
    const ids = [...text.matchAll(/^\| `([a-z0-9-]+)`(?:, `([a-z0-9-]+)`)?/gm)].flatMap((m) =>
      [m[1], m[2]].filter((s): s is string => s !== undefined),
    );
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(isDiagnosticCode(id), id).toBe(true);
  });
});
