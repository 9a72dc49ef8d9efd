/** `dataapi serve`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const SERVE_FLAGS = defineFlags({
  port: {
    type: 'string',
    arg: 'N',
    help: 'port to listen on (0: any free port)',
    default: process.env.PORT ?? '8080',
    shown: '$PORT or 8080',
    number: true,
    port: true,
  },
  host: {
    type: 'string',
    arg: 'HOST',
    help: 'address to listen on (0.0.0.0 in a container)',
    default: '127.0.0.1',
  },
  handlers: {
    type: 'string',
    arg: 'DIR',
    help: 'handler files (*.ts, *.js), each exporting handlers named by operation id',
    // Not a default value: a folder given and missing is refused, the default one may be missing.
    shown: 'handlers',
    path: true,
  },
  'example-handlers': {
    type: 'boolean',
    help: "operations without a handler answer from the description's examples\n(as the mock does): a stand-in for staging and contract runs",
  },
  'keys-file': {
    type: 'string',
    arg: 'FILE',
    help: 'accepted keys, one per line: the key, or sha256:<64 hex> of it',
    path: true,
  },
  'insecure-any-key': {
    type: 'boolean',
    help: 'accept ANY non-empty key (local work only; never in production)',
  },
  redis: {
    type: 'string',
    arg: 'URL',
    help: 'count rate limits in Redis (shared by every instance)',
    shown: '$REDIS_URL',
    url: ['redis', 'rediss'],
  },
  'redis-failure': {
    type: 'string',
    arg: 'MODE',
    help: 'when Redis is unreachable: open (let requests through) or closed (503)',
    default: 'open',
    choices: ['open', 'closed'],
  },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'the description shown at /docs',
    shown: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  // In the file: `docs: false`.
  'no-docs': { type: 'boolean', help: 'do not serve /docs' },
  dir: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated tree',
    default: 'generated',
    path: true,
    top: 'output',
  },
  'log-level': {
    type: 'string',
    arg: 'LEVEL',
    help: 'fatal, error, warn, info, debug, trace or silent',
    default: 'info',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  },
  'shutdown-timeout': {
    type: 'string',
    arg: 'MS',
    help: 'on SIGTERM, how long in-flight requests may take',
    default: '10000',
    number: true,
    int: { min: 0, unit: 'milliseconds' },
  },
});
