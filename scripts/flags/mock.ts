/** `dataapi mock`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const MOCK_FLAGS = defineFlags({
  port: {
    type: 'string',
    arg: 'N',
    help: 'port to listen on (0: any free port)',
    default: '4010',
    number: true,
    port: true,
  },
  host: { type: 'string', arg: 'HOST', help: 'address to listen on', default: '127.0.0.1' },
  // In the file: `rateLimit: false`.
  'no-rate-limit': { type: 'boolean', help: "do not enforce the operations' rate limits" },
  dir: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated tree whose mock to serve',
    default: 'generated',
    path: true,
    top: 'output',
  },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'serve a mock of this OpenAPI file instead (no generate needed)',
    path: true,
  },
  seed: {
    type: 'string',
    arg: 'N',
    help: 'seed of schema-derived samples',
    default: '1',
    number: true,
    int: {},
  },
  'skip-invalid-examples': {
    type: 'boolean',
    help: 'leave out examples that do not match their schema (with a warning)\ninstead of answering them with a schema sample (the default)',
  },
  'strict-examples': {
    type: 'boolean',
    help: "refuse to start when an example does not match its schema\n(otherwise each operation's examples are checked, and warned\nabout, when it is first asked for or in the background soon\nafter the mock listens)",
  },
});
