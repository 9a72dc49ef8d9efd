/** `dataapi scaffold operation`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const SCAFFOLD_FLAGS = defineFlags({
  method: {
    type: 'string',
    arg: 'METHOD',
    help: 'get, post, put, patch or delete (required)',
    choices: ['get', 'post', 'put', 'patch', 'delete'],
    anyCase: true,
  },
  path: {
    type: 'string',
    arg: 'TEMPLATE',
    help: 'path template, e.g. /weather/forecast or /items/{id} (required)',
  },
  category: { type: 'string', arg: 'NAME', help: 'an existing tag of the spec (required)' },
  id: {
    type: 'string',
    arg: 'OPERATION_ID',
    help: 'default: from method and path (getWeatherForecast)',
  },
  summary: { type: 'string', arg: 'TEXT', help: 'default: from the operationId' },
  envelope: {
    type: 'string',
    arg: 'SPELLING',
    help: 'capitalised | lowerCamel | none',
    default: 'capitalised',
    choices: ['capitalised', 'lowerCamel', 'none'],
  },
  codes: {
    type: 'string',
    arg: 'GROUP',
    help: 'a group of x-dataapi-business-code-groups (A, B, C, base)',
    shown: 'base',
  },
  param: {
    type: 'list',
    arg: 'SPEC',
    help: 'name:type[:required], repeatable; type string|integer|number|boolean.\nQuery parameters; {names} of the path become path parameters',
    default: [],
  },
  'body-field': {
    type: 'list',
    arg: 'SPEC',
    help: 'name:type[:required], repeatable: a JSON request body',
    default: [],
  },
  // In the file: `preview: false`.
  'no-preview': { type: 'boolean', help: 'no /demo preview variant (x-dataapi-preview: false)' },
  'rate-limit': {
    type: 'string',
    arg: 'N/UNIT',
    help: 'e.g. 5/s, 100/minute',
    shown: "the spec's root default",
  },
  writes: {
    type: 'boolean',
    help: 'the operation changes state (contract runs send it only with --allow-writes)',
  },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'the YAML description to edit',
    default: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  out: {
    type: 'string',
    arg: 'DIR',
    help: 'the generated folder to refresh',
    default: 'generated',
    path: true,
    top: 'output',
  },
  handlers: {
    type: 'string',
    arg: 'DIR',
    help: 'where handler files are created',
    default: 'handlers',
    path: true,
  },
  'dry-run': { type: 'boolean', help: 'print what would be added; change nothing' },
});
