/** `dataapi generate`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { FIRST_FEW } from '../description-findings.ts';
import { defineFlags } from './declare.ts';

export const GENERATE_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'OpenAPI 3.x or Swagger 2.0 (YAML or JSON)',
    default: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  out: {
    type: 'string',
    arg: 'DIR',
    help: 'output folder, replaced atomically',
    default: 'generated',
    path: true,
    top: 'output',
  },
  kinds: {
    type: 'string',
    arg: 'LIST',
    help: "render only these template kinds (client,server,mock,contract-tests);\ntypes.ts and the model are always emitted; the other kinds'\nfiles already in --out are kept as they are",
    comma: true,
    choices: ['client', 'server', 'mock', 'contract-tests'],
  },
  force: {
    type: 'boolean',
    help: 'regenerate even when nothing changed since the last run (a re-run\nwith unchanged spec, templates and toolkit is otherwise skipped)',
  },
  check: {
    type: 'boolean',
    help: 'write nothing; compare with --out, list the files that differ,\nexit 1 on drift (for CI)',
  },
  // In the file: `typecheck: false`.
  'no-typecheck': {
    type: 'boolean',
    help: 'skip the type-check of the whole generated tree (run in memory\nbefore writing, beside formatting); the syntax check stays',
  },
  verbose: {
    type: 'boolean',
    help: `list every finding about the description (without it: a count and\nthe first ${FIRST_FEW}, on stderr)`,
  },
});
