/**
 * The field panel: Jupyter Server 1.23.3 (Debian's python3-jupyter-server, Python on Tornado,
 * kernels from python3-ipykernel), tested with `dataapi contract --allow-writes` against the
 * Swagger 2.0 description it serves itself (GET /api/spec.yaml). The run must report exactly the
 * failures audited in docs/field.md (its `<!-- field:jupyter -->` list), both ways: a failure the
 * page does not list, or one it lists that the run no longer reports, fails the test.
 *
 * The description has no operationIds: the toolkit names the operations from method and path
 * (`getApiContentsByPath`, `postApiKernelsByKernelIdRestart`, ...), and the list uses those names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, runCli, type CliRun } from '../contract/harness.ts';
import { expectedFailures } from './expected.ts';
import { jupyterPythonOrFail, startJupyter } from './jupyter.ts';
import type { FieldServer } from './server.ts';

const python = jupyterPythonOrFail();

describe.skipIf(!python)(
  `Jupyter Server 1.23.3 against its own description${python ? '' : ' (skipped locally: no /usr/bin/python3 -m jupyter_server with ipykernel; CI fails instead)'}`,
  () => {
    let server: FieldServer | undefined;
    let run: CliRun;

    beforeAll(async () => {
      server = await startJupyter();
      run = await runCli(
        'contract',
        ['--spec', server.spec, '--base-url', server.baseUrl, '--allow-writes'],
        'jupyter',
      );
    });

    afterAll(async () => {
      await server?.close();
    });

    /** Each failure with its messages, for an assertion that fails. */
    const detail = () =>
      (run.result?.results ?? [])
        .filter((r) => r.status === 'failed')
        .map(
          (r) =>
            `${r.operation} ${r.check}: ${r.errors.length > 0 ? r.errors.join(' | ') : r.message}`,
        )
        .join('\n') || `${run.stdout}\n${run.stderr}`;

    it('runs all 29 operations at the base URL (basePath /), with no errors outside the checks', () => {
      expect(run.result, `no results file:\n${run.stdout}\n${run.stderr}`).toBeDefined();
      expect(run.result!.target.baseUrl).toBe(server!.baseUrl);
      expect(run.result!.errors).toEqual([]);
      expect(run.result!.coverage.operations).toHaveLength(29);
    });

    it('reports exactly the failures docs/field.md lists for it', () => {
      const failures = [
        ...new Set(failedOf(run).map((f) => f.split(' ').slice(0, 2).join(' '))),
      ].sort();
      expect(failures, detail()).toEqual(expectedFailures('jupyter'));
    });

    it('exits 1 on them, with no toolkit faults', () => {
      expect(run.code, detail()).toBe(expectedFailures('jupyter').length > 0 ? 1 : 0);
      expect(run.result!.summary.toolkitFaults ?? 0).toBe(0);
      expect(run.result!.toolkitFaults ?? []).toEqual([]);
    });
  },
);
