/** The CI workflow for the project's users runs what docs/integrators.md says it runs. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';

type Step = {
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Job = { if?: string; permissions?: Record<string, string>; steps: Step[] };

const file = fileURLToPath(new URL('../../.github/workflows/dataapi.yml', import.meta.url));
const doc = parseDocument(readFileSync(file, 'utf8'));
const wf = doc.toJS() as {
  on: { workflow_dispatch: { inputs: Record<string, unknown> } };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};

describe('.github/workflows/dataapi.yml', () => {
  it('is valid YAML', () => expect(doc.errors).toEqual([]));

  it('lints, checks for drift, tests and runs the contract suite against the mock with a JUnit artifact', () => {
    const steps = wf.jobs['check']!.steps;
    const runs = steps.map((s) => s.run ?? s.uses ?? '');
    const order = [
      /^actions\/checkout@/,
      /^actions\/setup-node@/,
      /^npm ci/,
      /^npx dataapi lint$/,
      /^npx dataapi generate --check$/,
      /^npm test$/,
      /^npx dataapi contract .*--reporter \S*junit.* --report-dir reports/,
      /^actions\/upload-artifact@/,
    ];
    let at = 0;
    for (const pattern of order) {
      const found = runs.findIndex((r, i) => i >= at && pattern.test(r));
      expect(found, String(pattern)).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
    expect(steps.find((s) => s.uses?.startsWith('actions/setup-node'))!.with!['node-version']).toBe(
      20,
    );
    expect(steps.at(-1)!.with!['path']).toBe('reports/');
  });

  it('has a manual job for QA against a deployment, with the key from a secret', () => {
    expect(wf.on.workflow_dispatch.inputs).toHaveProperty('base_url');
    const job = wf.jobs['contract-deployment']!;
    expect(job.if).toContain('workflow_dispatch');
    const step = job.steps.find((s) => s.run?.includes('dataapi contract'))!;
    expect(step.env!['DATAAPI_APPKEY']).toBe('${{ secrets.DATAAPI_APPKEY }}');
    expect(step.run).toContain('--base-url "$BASE_URL"');
    // Inputs reach the script only through the environment (no expression injection).
    expect(step.run).not.toContain('${{');
  });

  it('runs dataapi diff on pull requests against the base branch and posts one sticky comment', () => {
    const job = wf.jobs['diff']!;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    // Least privilege: read-only at the top, pull-requests: write on this job only.
    expect(wf.permissions).toEqual({ contents: 'read' });
    expect(job.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    for (const [name, other] of Object.entries(wf.jobs))
      if (name !== 'diff') expect(other.permissions?.['pull-requests'], name).toBeUndefined();
    const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!;
    expect(checkout.with!['fetch-depth']).toBe(0);
    const diff = job.steps.find((s) => s.run?.includes('dataapi diff'))!;
    expect(diff.run).toMatch(
      /npx dataapi diff --base "origin\/\$BASE_REF" --format markdown --output (\S+)/,
    );
    expect(diff.env!['BASE_REF']).toBe('${{ github.base_ref }}');
    expect(diff.run).not.toContain('${{');
    const post = job.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!;
    const script = String(post.with!['script']);
    // One comment, found by the report's first line and updated on each push.
    expect(script).toContain("'<!-- dataapi-diff -->'");
    expect(script).toContain('updateComment');
    expect(script).toContain('createComment');
    const out = /--output (\S+)/.exec(diff.run!)![1]!;
    expect(script).toContain(out);
    // Exit 1 fails the job only after the comment is posted.
    const steps = job.steps.map((s) => s.run ?? s.uses ?? '');
    const fail = job.steps.findIndex(
      (s) => s.if?.includes("steps.diff.outputs.exit == '1'") && s.run?.includes('exit 1'),
    );
    expect(fail).toBeGreaterThan(steps.findIndex((r) => r.startsWith('actions/github-script@')));
  });

  it('docs/integrators.md shows the contract step exactly as the workflow runs it', () => {
    const guide = readFileSync(
      fileURLToPath(new URL('../../docs/integrators.md', import.meta.url)),
      'utf8',
    );
    const step = wf.jobs['check']!.steps.find((s) => s.run?.startsWith('npx dataapi contract'))!;
    expect(guide).toContain(`\`${step.run!.trim()}\``);
    // Our console report, not vitest's `default` (which prints vitest's own output instead).
    expect(guide).not.toMatch(/--reporter \S*\bdefault\b/);
  });
});
