/** Every command's flag table, by command name: the configuration type and the tests read them. */
import { CONTRACT_FLAGS } from './contract.ts';
import { DIFF_FLAGS } from './diff.ts';
import { GENERATE_FLAGS } from './generate.ts';
import { INIT_FLAGS } from './init.ts';
import { LINT_FLAGS } from './lint.ts';
import { MOCK_FLAGS } from './mock.ts';
import { PACK_FLAGS } from './pack.ts';
import { PROXY_FLAGS } from './proxy.ts';
import { REPORT_FLAGS } from './report.ts';
import { SCAFFOLD_FLAGS } from './scaffold.ts';
import { SERVE_FLAGS } from './serve.ts';
import { START_FLAGS } from './start.ts';

export const FLAG_TABLES = {
  generate: GENERATE_FLAGS,
  contract: CONTRACT_FLAGS,
  proxy: PROXY_FLAGS,
  report: REPORT_FLAGS,
  start: START_FLAGS,
  mock: MOCK_FLAGS,
  serve: SERVE_FLAGS,
  lint: LINT_FLAGS,
  diff: DIFF_FLAGS,
  pack: PACK_FLAGS,
  scaffold: SCAFFOLD_FLAGS,
  init: INIT_FLAGS,
} as const;
