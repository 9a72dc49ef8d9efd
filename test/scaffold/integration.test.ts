/**
 * The integrator's path end to end, on a copy of the spec in a temporary project folder: the
 * `dataapi scaffold` command adds an operation and regenerates; its stub, client method, mock and
 * contract tests exist at once, and its contract tests pass against the embedded mock unedited.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { toFileStem, toIdentifier } from '../../model/identifiers.ts';
import { freePath } from './free-path.ts';
import { removeWork, workDir } from '../work.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the project, so that the generated code's `dataapi/...` imports resolve.
const project = workDir('scaffold-project');
const cli = path.join(root, 'bin/dataapi.js');

function dataapi(args: string[]) {
  const env = { ...process.env };
  delete env['DATAAPI_APPKEY'];
  return spawnSync(process.execPath, [cli, ...args], { cwd: project, encoding: 'utf8', env });
}

// Its scratch folder goes with it (KEEP_WORK=1 keeps it for a look).
afterAll(() => removeWork(project));

describe('scaffold, generate and contract-test a new operation', () => {
  it('passes its contract tests against the mock without further edits', () => {
    rmSync(project, { recursive: true, force: true });
    mkdirSync(path.join(project, 'spec'), { recursive: true });
    mkdirSync(path.join(project, 'contract-tests'), { recursive: true });
    copyFileSync(path.join(root, 'spec/openapi.yaml'), path.join(project, 'spec/openapi.yaml'));
    // The contract runner reads <root>/generated and <root>/contract-tests/vitest.config.ts.
    copyFileSync(
      path.join(root, 'contract-tests/vitest.config.ts'),
      path.join(project, 'contract-tests/vitest.config.ts'),
    );

    const specText = readFileSync(path.join(project, 'spec/openapi.yaml'), 'utf8');
    // Paths the description does not have yet, whatever the user scaffolded (free-path.ts).
    const F = freePath(specText);
    const dry = dataapi([
      'scaffold',
      'operation',
      '--method',
      'get',
      '--path',
      F.path,
      '--category',
      'Weather, air quality',
      '--dry-run',
    ]);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`operationId: ${F.id}Demo`);
    // The handler file it would create, in full.
    expect(dry.stdout).toContain(`and create handlers/${F.stem}.ts:`);
    expect(dry.stdout).toContain(`export const ${F.id}: Handlers['${F.id}'] = async (input) =>`);
    expect(dry.stdout).toContain('Nothing was changed.');
    expect(readFileSync(path.join(project, 'spec/openapi.yaml'), 'utf8')).toBe(specText);

    const added = dataapi([
      'scaffold',
      'operation',
      '--method',
      'post',
      '--path',
      `${F.path}/{city_id}`,
      '--category',
      'Weather, air quality',
      '--codes',
      'A',
      '--param',
      'days:integer:required',
      '--body-field',
      'hours:integer',
      '--body-field',
      'note:string:required',
      '--rate-limit',
      '10/s',
    ]);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain(
      `added POST ${F.path}/{city_id} and POST ${F.path}/{city_id}/demo`,
    );
    expect(added.stdout).toMatch(/regenerated generated\/ \(\d+ files written/);

    // The id scaffold derives (plan.ts): postWeatherForecastByCityId for /weather/forecast.
    const id = toIdentifier(`post ${F.path}/ by city_id `, 'operation');
    const gen = (file: string) => readFileSync(path.join(project, 'generated', file), 'utf8');
    const model = JSON.parse(gen('model.json')) as {
      operations: { id: string; preview?: { id: string } }[];
    };
    expect(model.operations.find((o) => o.id === id)?.preview?.id).toBe(`${id}Preview`);
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(gen('server/index.ts')).toMatch(
      new RegExp(
        `\\n  ${id}: \\{\\s*op: paths\\['${literal(`${F.path}/{city_id}`)}'\\]\\['post'\\]`,
      ),
    );
    expect(gen('client/index.ts')).toContain(id);
    expect(gen(`contract-tests/${toFileStem(id, 'operation')}.test.ts`)).toContain(
      `contractSuite(model, '${id}')`,
    );
    expect(
      readFileSync(path.join(project, `handlers/${toFileStem(id, 'operation')}.ts`), 'utf8'),
    ).toContain("from '../generated/server/index.ts'");

    // Judged on the structured results, not on console wording (which reporters may change).
    const resultsFile = path.join(project, 'reports', 'scaffold-results.json');
    const contract = dataapi(['contract', '--only', id, '--results', resultsFile]);
    expect(contract.status, contract.stdout + contract.stderr).toBe(0);
    const run = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
      summary: { passed: number; failed: number };
      results: { operation: string; status: string }[];
    };
    expect(run.summary.failed).toBe(0);
    expect(run.summary.passed).toBeGreaterThan(10);
    expect(new Set(run.results.map((r) => r.operation))).toEqual(new Set([id]));
  });
});
