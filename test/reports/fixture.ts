/**
 * The committed results fixture (a real run, see make-fixture.ts) and what the tests know about it:
 * which check of which operation failed on purpose, and the hostile text a response carried.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckName, ContractRunResult, Variant } from '../../contract-tests/results.ts';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../..');

/** Markup that must not run, characters XML forbids, a terminal escape, a CDATA end. */
export const HOSTILE =
  '<img src=x onerror=window.__pwned=2></script><script>window.__pwned=1</script> ]]> & "q" \'a\' \u0000\u001b[31m';

export const FIXTURE_OPERATIONS = [
  'getAirQuality',
  'getIpLocation',
  'getSslCertInfo',
  'getGlobalUniversityRanking',
  'getFundBasicIndex',
  'getFundBasicInfo',
  'getFundOpenHistory',
  'getFundOpenRankingList',
  'getFundOpenNavRealtime',
  'getFundOpenRealtime',
  'uploadKnowledgeBaseDocuments',
];

/** Each deliberate fault of the fixture run: operation, variant and the check that reports it. */
export const EXPECTED_FAILURES: [string, Variant, CheckName][] = [
  ['getAirQuality', 'main', 'schema'],
  ['getAirQuality', 'preview', 'content-type'],
  ['getIpLocation', 'main', 'envelope'],
  ['getSslCertInfo', 'main', 'business-code'],
  ['getGlobalUniversityRanking', 'main', 'negative'],
  ['getGlobalUniversityRanking', 'preview', 'paging'],
  ['getFundBasicIndex', 'main', 'status'],
  ['getFundBasicInfo', 'main', 'method-path'],
  ['getFundOpenHistory', 'main', 'auth'],
  ['getFundOpenRankingList', 'main', 'server-errors'],
  ['getFundOpenNavRealtime', 'main', 'headers'],
  ['getFundOpenRealtime', 'main', 'response-time'],
  ['uploadKnowledgeBaseDocuments', 'main', 'lifecycle'],
];

export function loadFixture(): ContractRunResult {
  return JSON.parse(
    readFileSync(path.join(HERE, 'fixtures', 'contract-results.json'), 'utf8'),
  ) as ContractRunResult;
}
