/**
 * `dataapi init`'s flags (scripts/flags/declare.ts says what a declaration gives). It writes the
 * configuration file and reads none: no flag of it is a setting.
 */
import { defineFlags } from './declare.ts';

export const INIT_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE|URL',
    help: 'the OpenAPI description    default: the first of openapi.yaml, openapi.json,\nspec/openapi.yaml, swagger.yaml, api/openapi.yaml found here',
    config: false,
  },
  output: {
    type: 'string',
    arg: 'DIR',
    help: 'where `dataapi generate` writes',
    default: 'generated',
    config: false,
  },
  format: {
    type: 'string',
    arg: 'FORMAT',
    help: 'ts (typed with defineConfig; loaded through tsx), mjs, js or json\ndefault: ts where a tsconfig.json and tsx are, else mjs',
    choices: ['ts', 'mjs', 'js', 'json'],
    config: false,
  },
  ci: {
    type: 'boolean',
    help: 'also write .github/workflows/dataapi.yml (lint, drift check, the contract\nsuite against the embedded mock on 4 machines (--shard i/4), their reports\nmerged by `dataapi report merge` and uploaded)',
    config: false,
  },
  force: { type: 'boolean', help: 'replace files that exist', config: false },
});
