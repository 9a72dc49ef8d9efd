/**
 * The OpenAPI description is structurally valid (Swagger Parser) and passes Redocly's
 * recommended ruleset (redocly.yaml) without errors.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const specPath = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

describe('spec/openapi.yaml validity', () => {
  it('validates with Swagger Parser', async () => {
    // validate() parses the file itself, so no shared object is mutated.
    const api = await SwaggerParser.validate(specPath);
    expect(api.info.title).toBe('Data and AI API Service');
  });

  it('has no Redocly lint errors', () => {
    const redocly = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url));
    const run = spawnSync(redocly, ['lint', specPath, '--format=json'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    expect(run.error).toBeUndefined();
    const start = run.stdout.indexOf('{');
    expect(
      start,
      `no JSON report in redocly output:\n${run.stdout}\n${run.stderr}`,
    ).toBeGreaterThanOrEqual(0);
    const report = JSON.parse(run.stdout.slice(start)) as LintReport;
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
