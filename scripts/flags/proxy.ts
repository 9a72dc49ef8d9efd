/** `dataapi proxy`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { SEVERITY_SETTINGS } from '../../model/diagnostics.ts';
import { defineFlags } from './declare.ts';

export const PROXY_FLAGS = defineFlags({
  upstream: {
    type: 'string',
    arg: 'URL',
    help: 'the deployment to put the proxy in front of (http:// or https://)',
    url: ['http', 'https'],
  },
  host: { type: 'string', arg: 'HOST', help: 'address to listen on', default: '127.0.0.1' },
  port: {
    type: 'string',
    arg: 'N',
    help: 'port to listen on (0: any free port)',
    default: '4020',
    number: true,
    port: true,
  },
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'judge against this OpenAPI description',
    shown: 'generated/',
    path: true,
  },
  reporter: {
    type: 'list',
    arg: 'NAME,...',
    help: 'console (default), junit, json, html, sarif: written when the proxy stops',
    choices: ['console', 'junit', 'json', 'html', 'sarif'],
  },
  'report-dir': {
    type: 'string',
    arg: 'DIR',
    help: 'where report files go',
    default: 'reports',
    path: true,
  },
  'report-every': {
    type: 'string',
    arg: 'S',
    help: 'also write the reports every S seconds while it runs',
    number: true,
    int: { min: 1, unit: 'seconds' },
  },
  record: {
    type: 'string',
    arg: 'FILE.har',
    help: 'keep every exchange as HAR 1.2 (keys redacted); judge it later with\n`dataapi contract --from-har FILE.har`',
    path: true,
  },
  severity: {
    type: 'list',
    arg: 'CODE=LEVEL,...',
    help: 'a check or a warning code at another severity: failure, warning or\noff (as `dataapi contract --severity`; docs/diagnostics.md)',
    map: SEVERITY_SETTINGS,
  },
  timeout: {
    type: 'string',
    arg: 'MS',
    help: 'how long the deployment may take to start answering; then the\nclient gets 504 and a finding is printed',
    shown: '30000',
    number: true,
    int: { min: 1, unit: 'milliseconds' },
  },
  ca: {
    type: 'string',
    arg: 'FILE',
    help: "PEM certificate(s) an https:// deployment's certificate may chain to\n(a private CA), besides the system's",
    path: true,
  },
  insecure: {
    type: 'boolean',
    help: "do not verify the https:// deployment's certificate (said loudly)",
  },
});
