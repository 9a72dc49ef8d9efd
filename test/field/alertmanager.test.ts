/**
 * The field panel: Prometheus Alertmanager 0.25.0 (Debian's prometheus-alertmanager, Go), tested
 * with `dataapi contract --allow-writes` against the Swagger 2.0 description embedded in its own
 * binary. The run must report exactly the failures audited in docs/field.md (its
 * `<!-- field:alertmanager -->` list), both ways: a failure the page does not list, or one it
 * lists that the run no longer reports, fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedOf, runCli, type CliRun } from '../contract/harness.ts';
import { alertmanagerBinaryOrFail, startAlertmanager } from './alertmanager.ts';
import { expectedFailures } from './expected.ts';
import type { FieldServer } from './server.ts';

const binary = alertmanagerBinaryOrFail();

describe.skipIf(!binary)(
  `Prometheus Alertmanager 0.25.0 against its embedded description${binary ? '' : ' (skipped locally: no /usr/bin/prometheus-alertmanager; CI fails instead)'}`,
  () => {
    let server: FieldServer | undefined;
    let run: CliRun;

    beforeAll(async () => {
      server = await startAlertmanager();
      run = await runCli(
        'contract',
        ['--spec', server.spec, '--base-url', server.baseUrl, '--allow-writes'],
        'alertmanager',
      );
    });

    afterAll(async () => {
      await server?.close();
    });

    /** Each failure with its message, for an assertion that fails. */
    const detail = () =>
      (run.result?.results ?? [])
        .filter((r) => r.status === 'failed')
        .map((r) => `${r.operation} ${r.check}: ${r.message}`)
        .join('\n') || `${run.stdout}\n${run.stderr}`;

    it('runs under the description server path joined to the base URL (/api/v2)', () => {
      expect(run.result, `no results file:\n${run.stdout}\n${run.stderr}`).toBeDefined();
      expect(run.result!.target.baseUrl).toBe(`${server!.baseUrl}/api/v2`);
      expect(run.result!.errors).toEqual([]);
      expect(run.result!.coverage.operations).toHaveLength(9);
    });

    it('reports exactly the failures docs/field.md lists for it', () => {
      const failures = [
        ...new Set(failedOf(run).map((f) => f.split(' ').slice(0, 2).join(' '))),
      ].sort();
      expect(failures, detail()).toEqual(expectedFailures('alertmanager'));
    });

    it('reports the 422s to a silence id outside its uuid format as the undeclared status they are (V3, V4)', () => {
      const warned = run.result!.warnings.map((w) => `${w.code} ${w.pointer} ${w.message}`);
      for (const method of ['get', 'delete'])
        expect(warned, warned.join('\n')).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^undeclared-status /paths/~1silence~1\\{silenceID\\}/${method}/responses HTTP 422 .*silenceID="not-a-uuid"`,
            ),
          ),
        );
    });

    it('exits 1 on them, with no toolkit faults', () => {
      expect(run.code, detail()).toBe(expectedFailures('alertmanager').length > 0 ? 1 : 0);
      expect(run.result!.summary.toolkitFaults ?? 0).toBe(0);
      expect(run.result!.toolkitFaults ?? []).toEqual([]);
    });
  },
);
