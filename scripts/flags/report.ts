/** `dataapi report merge`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { OWN_REPORTERS } from '../../contract-tests/reports/index.ts';
import { defineFlags } from './declare.ts';

export const REPORT_FLAGS = defineFlags({
  'report-dir': {
    type: 'string',
    arg: 'DIR',
    help: 'where the merged reports go',
    default: 'reports',
    path: true,
  },
  reporter: {
    type: 'list',
    arg: 'NAME,...',
    help: `${OWN_REPORTERS.join(', ')} (default: all of them)\n(console prints the matrix, failures and coverage; the others are\nfiles: contract-junit.xml, contract-results.json,\ncontract-report.html, contract-results.sarif)`,
    choices: OWN_REPORTERS,
  },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: "the description the runs tested (coverage is measured against it)\ndefault: the generated tree's (--dir), else the configuration\nfile's spec",
    path: true,
  },
  dir: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated tree whose model.json is read',
    default: 'generated',
    path: true,
    top: 'output',
  },
});
