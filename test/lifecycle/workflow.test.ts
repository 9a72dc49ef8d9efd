/** The CI workflow sends lint findings and API changes to code scanning as SARIF. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { root } from './helpers.ts';

type Step = {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Job = { if?: string; permissions?: Record<string, string>; steps: Step[] };

const wf = parseDocument(
  readFileSync(path.join(root, '.github/workflows/dataapi.yml'), 'utf8'),
).toJS() as { jobs: Record<string, Job> };

describe('.github/workflows/dataapi.yml: code scanning', () => {
  const job = wf.jobs['code-scanning']!;

  it('writes lint and diff SARIF and uploads both, each under its own category', () => {
    const script = job.steps.find((s) => s.id === 'sarif')!;
    expect(script.run).toContain('npx dataapi lint --format sarif --output dataapi-lint.sarif');
    expect(script.run).toMatch(
      /npx dataapi diff --base "\$base" --format sarif --output dataapi-diff\.sarif/,
    );
    // Refs reach the script only through the environment (no expression injection).
    expect(script.run).not.toContain('${{');
    const uploads = job.steps.filter((s) =>
      s.uses?.startsWith('github/codeql-action/upload-sarif@'),
    );
    expect(uploads.map((s) => [s.with!['sarif_file'], s.with!['category']])).toEqual([
      ['dataapi-lint.sarif', 'dataapi-lint'],
      ['dataapi-diff.sarif', 'dataapi-diff'],
    ]);
  });

  it('is the only job that writes security events', () => {
    expect(job.permissions).toEqual({ contents: 'read', 'security-events': 'write' });
    for (const [name, other] of Object.entries(wf.jobs))
      if (name !== 'code-scanning')
        expect(other.permissions?.['security-events'], name).toBeUndefined();
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!;
    expect(checkout.with!['fetch-depth']).toBe(0);
  });
});
