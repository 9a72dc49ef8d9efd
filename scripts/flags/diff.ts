/** `dataapi diff`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const DIFF_FLAGS = defineFlags({
  // A git revision as often as a file: taken as written.
  base: { type: 'string', arg: 'REV|FILE', help: 'BASE (instead of the first argument)' },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'the description in the working tree',
    default: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  format: {
    type: 'string',
    arg: 'FORMAT',
    help: 'text, json, markdown (a pull-request comment), changelog (release notes\nby operation and severity) or sarif (SARIF 2.1.0 for code scanning)',
    default: 'text',
    choices: ['text', 'json', 'markdown', 'changelog', 'sarif'],
  },
  output: {
    type: 'string',
    arg: 'FILE',
    help: 'write the report to FILE instead of stdout (nothing is written on bad input)',
    path: true,
  },
  today: {
    type: 'string',
    arg: 'YYYY-MM-DD',
    help: 'the day sunsets are compared with',
    shown: 'today (UTC)',
    day: true,
  },
  allow: {
    type: 'list',
    arg: 'RULE[:operationId]',
    help: 'accept a change on purpose (repeatable); or list it with a reason under\nx-dataapi-allow-breaking in the HEAD description; a renamed\noperation matches by its old or its new operationId',
  },
});
