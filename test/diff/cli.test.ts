/** `dataapi diff` through the real command line: exit codes, formats, --output, --help. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../generator/helpers.ts';
import { BASE, headFile, scratch } from './helpers.ts';

const dir = scratch('cli');
const breaking = headFile(dir, 'breaking', (d) => {
  d.paths['/pets/{petId}'].get.operationId = 'fetchPet';
  d.components.schemas.Kind.enum.push('bird');
});
const compatible = headFile(
  dir,
  'compatible',
  (d) => (d.components.schemas.Pet.properties.color = { type: 'string' }),
);

describe('dataapi diff (CLI)', () => {
  it('exit 1 on a breaking change, with the rule, operation and line in the text report', async () => {
    const r = await cli('diff', BASE, breaking);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^BREAKING\s+api-operation-id-changed\s+GET \/pets\/\{petId\} \(fetchPet\)$/m,
    );
    expect(r.stdout).toMatch(
      /at \S*\/breaking\.yaml:\d+ #\/paths\/~1pets~1\{petId\}\/get\/operationId/,
    );
    expect(r.stdout).toMatch(/^WARNING\s+response-enum-value-added/m);
  });

  it('exit 0 on compatible changes; --allow turns a breaking run green', async () => {
    expect((await cli('diff', BASE, compatible)).code).toBe(0);
    const r = await cli(
      'diff',
      BASE,
      breaking,
      '--allow',
      'api-operation-id-changed:fetchPet',
      '--format',
      'json',
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.version).toBe(1);
    expect(report.summary).toEqual({ breaking: 0, warning: 3, compatible: 2, allowed: 1 });
  });

  it('--format markdown --output writes the pull-request comment', async () => {
    const out = path.join(dir, 'comment.md');
    const r = await cli('diff', '--base', BASE, breaking, '--format', 'markdown', '--output', out);
    expect(r.code).toBe(1);
    const md = readFileSync(out, 'utf8');
    expect(md.split('\n')[0]).toBe('<!-- dataapi-diff -->');
    expect(md).toContain('## dataapi diff: 1 breaking change');
    expect(md).toMatch(/\| GET \/pets\/\{petId\} \(fetchPet\) \| `api-operation-id-changed` \|/);
  });

  it('exit 2 and nothing written on bad input: unreadable file, unknown revision, bad flag', async () => {
    const out = path.join(dir, 'never.md');
    const missing = await cli('diff', 'no/such/file.yaml', BASE, '--output', out);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/BASE no\/such\/file\.yaml: neither a file nor a git revision/);
    const rev = await cli('diff', '--base', 'origin/no-such-branch-anywhere', '--output', out);
    expect(rev.code).toBe(2);
    expect(rev.stderr).toContain('Nothing was written.');
    expect(existsSync(out)).toBe(false);
    const flag = await cli('diff', BASE, '--format', 'yaml');
    expect(flag.code).toBe(2);
  });

  it('--help lists the options and exit codes', async () => {
    const r = await cli('diff', '--help');
    expect(r.code).toBe(0);
    for (const s of ['--base', '--format', '--allow', 'x-dataapi-allow-breaking', 'Exit codes'])
      expect(r.stdout).toContain(s);
  });
});
