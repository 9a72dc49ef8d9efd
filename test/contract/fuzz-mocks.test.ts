/**
 * `--fuzz 50` against our own mocks finds nothing: the service's and those of the third-party
 * descriptions nobody here wrote. A failure here is a bug of the mock or the sampler (or a
 * description finding that must be a warning). Lean for CI: the service's operations with
 * bodies, paging, links and an async pair, all of museum, and a sample of the operations of
 * Twilio, Adyen and Box with the most fields; the full run over every operation of all of them
 * is reported in the closing notes. The runs go in parallel: they wait on rate limits.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { failedOf, reportDir, runCli, type CliRun } from './harness.ts';

const THIRD = 'test/fixtures/third-party';
const TARGETS: Record<string, string[]> = {
  service: [
    '--only',
    'getGlobalUniversityRanking,rankAdmissionMajorLines,uploadKnowledgeBaseDocuments,submitDocumentExtraction,getDocumentExtractionTask,getAirQualityDemo',
  ],
  museum: ['--spec', `${THIRD}/museum.yaml`],
  twilio: [
    '--spec',
    `${THIRD}/twilio-verify-v2.json`,
    '--only',
    'createService,listVerificationAttempt,createWebhook',
  ],
  adyen: [
    '--spec',
    `${THIRD}/adyen-management-v3.json`,
    '--only',
    'postMerchantsMerchantIdPaymentMethodSettings,patchMerchantsMerchantIdSplitConfigurationsSplitConfigurationIdRulesRuleIdSplitLogicSplitLogicId',
  ],
  box: [
    '--spec',
    `${THIRD}/box.json`,
    '--only',
    'postUsers,getFoldersIdItems,getFilesIdThumbnailId',
  ],
};

const runs: Record<string, CliRun> = {};

beforeAll(async () => {
  await Promise.all(
    Object.entries(TARGETS).map(async ([name, args]) => {
      runs[name] = await runCli(
        'contract',
        [...args, '--fuzz', '50', '--seed', '1', '--report-dir', reportDir(`fuzz-${name}`)],
        `fuzz-${name}`,
      );
    }),
  );
}, 600_000);

describe('--fuzz 50 against our own mocks', () => {
  for (const name of Object.keys(TARGETS))
    it(`${name}: no failure, every operation fuzzed`, () => {
      const run = runs[name]!;
      expect(failedOf(run), run.stdout.slice(-4000)).toEqual([]);
      expect(run.result!.errors).toEqual([]);
      expect(run.code).toBe(0);
      const ops = run.result!.fuzz!.operations;
      const tested = [...new Set(run.result!.results.map((r) => r.operation))];
      // Every operation's main variant was fuzzed (a preview-only selection is not).
      const main = run.result!.results.filter((r) => r.variant === 'main').map((r) => r.operation);
      expect(Object.keys(ops).sort()).toEqual([...new Set(main)].sort());
      expect(tested.length).toBeGreaterThan(0);
      for (const [op, s] of Object.entries(ops)) {
        expect(s.runs.valid, op).toBeGreaterThanOrEqual(1);
        expect(s.requests, op).toBeGreaterThanOrEqual(s.runs.valid + s.runs.invalid);
      }
    });

  it('fuzzes 50 valid and 50 invalid requests where the inputs allow, and follows links', () => {
    const service = runs['service']!.result!.fuzz!.operations;
    expect(service['rankAdmissionMajorLines']!.runs).toMatchObject({ valid: 50, invalid: 50 });
    expect(service['uploadKnowledgeBaseDocuments']!.runs.link).toBeGreaterThan(0);
    expect(service['submitDocumentExtraction']!.runs.link).toBeGreaterThan(0);
    expect(runs['service']!.result!.fuzz!.operations['getAirQuality']).toBeUndefined();
  });
});
