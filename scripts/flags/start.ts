/** `dataapi start`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const START_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'any OpenAPI 3.0/3.1 description (see above)',
    shown: 'spec/openapi.yaml',
    path: true,
  },
  'base-url': {
    type: 'string',
    arg: 'URL',
    help: 'test this deployment instead of the embedded mock (key: DATAAPI_APPKEY)',
  },
  reporter: {
    type: 'list',
    arg: 'NAME,...',
    help: 'console (default), junit, json, html: see dataapi contract --help',
  },
  timeout: {
    type: 'string',
    arg: 'MS',
    help: 'per-request timeout: a later response fails',
    default: '10000',
    number: true,
    int: { min: 1, unit: 'milliseconds' },
  },
  'report-dir': {
    type: 'string',
    arg: 'DIR',
    help: 'where report files go',
    shown: 'reports',
    path: true,
  },
  dir: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated tree',
    default: 'generated',
    path: true,
    top: 'output',
  },
  strict: {
    type: 'boolean',
    help: 'description warnings (with their JSON pointers) fail the run too',
  },
});
