/** `dataapi lint`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { FIRST_FEW } from '../description-findings.ts';
import { defineFlags } from './declare.ts';

export const LINT_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'OpenAPI 3.x or Swagger 2.0 (YAML or JSON)',
    default: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  format: {
    type: 'string',
    arg: 'FORMAT',
    help: 'text (one line per finding), json (for tools) or sarif (SARIF 2.1.0 for\ncode scanning)',
    default: 'text',
    choices: ['text', 'json', 'sarif'],
  },
  output: {
    type: 'string',
    arg: 'FILE',
    help: 'write the report to FILE instead of stdout',
    path: true,
  },
  today: {
    type: 'string',
    arg: 'DAY',
    help: 'day sunsets are compared with (YYYY-MM-DD)',
    shown: 'today (UTC)',
    day: true,
  },
  verbose: {
    type: 'boolean',
    help: `list every finding about the description that loading it gave (without it:\na count and the first ${FIRST_FEW}, on stderr)`,
  },
});
