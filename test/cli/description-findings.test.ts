/**
 * `generate` and `lint` say what loading the description found (the catalogue's findings), where
 * a user first runs the toolkit: a count and the first five on stderr, all of them with --verbose.
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workDir } from '../work.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A 3.0 description with seven 3.1 constructs (`const`): seven findings, one per property. */
const SPEC = `openapi: 3.0.3
info: { title: seven, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
${[1, 2, 3, 4, 5, 6, 7].map((i) => `                  p${i}: { type: string, const: v${i} }`).join('\n')}
`;

const run = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, 'bin/dataapi.js'), ...args], { encoding: 'utf8' });

describe('the description findings', () => {
  it('generate and lint print a count and the first five, --verbose all seven', async () => {
    const dir = workDir('description-findings');
    const spec = path.join(dir, 'seven.yaml');
    await writeFile(spec, SPEC);
    for (const command of ['generate', 'lint']) {
      const extra =
        command === 'generate' ? ['--out', path.join(dir, 'out'), '--no-typecheck'] : [];
      const brief = run([command, '--spec', spec, ...extra]);
      expect(brief.stderr, command).toContain(
        `dataapi ${command}: 7 findings about the description (warnings; each code in docs/diagnostics.md):`,
      );
      expect(brief.stderr.match(/^ {2}schema-openapi31-in-30 at /gm), command).toHaveLength(5);
      expect(brief.stderr, command).toContain('  ... and 2 more: --verbose lists them all');
      expect(brief.stderr, command).toMatch(/p1\/const \(.*seven\.yaml:\d+\): const: "v1"/);
      const all = run(
        [command, '--spec', spec, ...extra, '--verbose', '--force'].filter(
          (a) => command === 'generate' || a !== '--force',
        ),
      );
      expect(all.stderr.match(/^ {2}schema-openapi31-in-30 at /gm), command).toHaveLength(7);
      expect(all.stderr, command).not.toContain('more: --verbose');
    }
  });
});
