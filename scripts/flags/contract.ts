/** `dataapi contract`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { CHECKS } from '../../contract-tests/checks/definitions.ts';
import { SEVERITY_SETTINGS } from '../../model/diagnostics.ts';
import { defineFlags } from './declare.ts';

export const CONTRACT_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE',
    help: "test against this OpenAPI description: its own suite and mock are\ngenerated into node_modules/.cache/dataapi/ (generated/ is left alone)\ndefault: the project's generated/ suite (--dir), else the\nconfiguration file's spec",
    path: true,
  },
  dir: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated tree whose suite runs',
    default: 'generated',
    path: true,
    top: 'output',
  },
  'base-url': {
    type: 'string',
    arg: 'URL',
    help: 'the deployment to test; without it the embedded mock is started\nin-process on an ephemeral port and tested',
  },
  only: {
    type: 'string',
    arg: 'ID,...',
    help: 'only these operations (operation ids)',
    comma: true,
  },
  checks: {
    type: 'string',
    arg: 'NAME,...',
    help: 'only these checks, by name (the names are listed below)',
    comma: true,
    choices: CHECKS,
  },
  'exclude-checks': {
    type: 'string',
    arg: 'NAME,...',
    help: 'every check but these (with --checks: those less these)',
    comma: true,
    choices: CHECKS,
  },
  'save-failures': {
    type: 'string',
    arg: 'DIR',
    help: "write each failure (a fixed request, or a fuzzing failure shrunk to\nits minimal request) to DIR as a vitest test that sends the same\nrequest with fetch and judges the answer with the same check\n(<operation>.<check>.test.ts, and the model.json they read): ready to\ncommit as a regression test. The key is never written: the test reads\nDATAAPI_APPKEY; the target is DATAAPI_BASE_URL, by default this run's\n--base-url (or the mock's default http://127.0.0.1:4010)",
    path: true,
  },
  reporter: {
    type: 'list',
    arg: 'NAME,...',
    help: "console (default): progress, then the operations-by-checks matrix,\nfailures and coverage; junit, json, html, sarif: report files in\n--report-dir (contract-junit.xml, contract-results.json,\ncontract-report.html, contract-results.sarif for code scanning);\nany of vitest's reporters (dot, verbose, tap, github-actions, ...;\nvitest-junit, vitest-json for vitest's own files)",
  },
  'test-data': {
    type: 'string',
    arg: 'FILE',
    help: 'values the valid requests send instead of the description\'s\nexamples or schema samples, per operation id (JSON or YAML):\n{"createZone": {"path": {...}, "query": {...}, "body": {...}}};\nchecked against the description first (exit 2 when it refuses them)',
    path: true,
  },
  'report-dir': {
    type: 'string',
    arg: 'DIR',
    help: 'where report files go',
    shown: 'reports',
    path: true,
  },
  timeout: {
    type: 'string',
    arg: 'MS',
    help: 'per-request timeout: a later response fails',
    default: '10000',
    number: true,
    int: { min: 1, unit: 'milliseconds' },
  },
  shard: { type: 'string', arg: 'I/N', help: 'run part I of N (vitest sharding, for CI machines)' },
  'allow-writes': {
    type: 'boolean',
    help: 'also send operations that write (uploads, extraction submits);\nalways on against the embedded mock',
  },
  'max-response-time': {
    type: 'string',
    arg: 'MS',
    help: 'fail responses slower than this',
    number: true,
    int: { min: 1, unit: 'milliseconds' },
  },
  budget: {
    type: 'string',
    arg: 'N',
    help: 'send at most N requests in total (later checks are skipped)',
    number: true,
    int: { min: 1 },
  },
  results: {
    type: 'string',
    arg: 'FILE',
    help: 'the JSON report, written by every run',
    shown: '<report-dir>/contract-results.json',
    path: true,
  },
  strict: { type: 'boolean', help: 'description warnings fail the run too' },
  severity: {
    type: 'list',
    arg: 'CODE=LEVEL,...',
    help: 'a check or a warning code at another severity for this run: failure,\nwarning or off (method-path=warning: its violations are listed as\nwarnings; undeclared-content=failure; a check set to off does not\nrun). Codes and their usual severities: docs/diagnostics.md',
    map: SEVERITY_SETTINGS,
  },
  fuzz: {
    type: 'string',
    arg: 'N',
    help: 'property-based testing: per operation, N valid requests generated\nfrom the schemas (patterns, formats, enums, bounds and boundary\nvalues, lengths, optional fields present and absent, Unicode) and N\ninvalid ones (one violation each), every answer judged by the checks;\nlinks of successful answers are followed. A failure is shrunk to a\nminimal request and reported with its seed, a replay file and a curl\nline. Pacing, --budget and --allow-writes hold; combines with --only\nand --shard',
    number: true,
    int: { min: 1, max: 100_000 },
  },
  seed: {
    type: 'string',
    arg: 'S',
    help: 'the fuzzing seed (0..4294967295): the same seed sends the same\nrequests byte for byte. Default: one is chosen and printed',
    number: true,
    int: { min: 0, max: 0xffffffff },
  },
  replay: {
    type: 'string',
    arg: 'FILE',
    help: 'send the minimal request of one fuzzing failure again (a file the\nrun wrote under <report-dir>/fuzz/) and judge it: exit 1 while it\nstill fails, 0 once it passes',
    path: true,
  },
  'from-har': {
    type: 'string',
    arg: 'FILE',
    help: "judge the exchanges a HAR file recorded (`dataapi proxy --record`, a\nbrowser, another proxy) with the proxy's checks: offline, nothing is\nsent. Reports as for a run; exit 1 when an exchange fails a check",
    path: true,
  },
  'replay-to': {
    type: 'string',
    arg: 'URL',
    help: 'with --from-har: send the recorded requests to this deployment again\nand judge its answers (the key from DATAAPI_APPKEY replaces a\nredacted one); requests that write only with --allow-writes',
    url: ['http', 'https'],
  },
  'compare-mock': {
    type: 'boolean',
    help: 'with --base-url: send each request of the suite to the deployment and\nto the embedded mock, and report where they disagree (status,\nbusiness code, envelope, content type, the schema-valid fields\npresent) as drift, both answers side by side\n(<report-dir>/contract-drift.json); exit 1 on any drift',
  },
});
