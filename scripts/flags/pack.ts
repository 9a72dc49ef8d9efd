/** `dataapi pack client`'s flags (scripts/flags/declare.ts says what a declaration gives). */
import { defineFlags } from './declare.ts';

export const PACK_FLAGS = defineFlags({
  spec: {
    type: 'string',
    arg: 'FILE',
    help: 'OpenAPI 3.0/3.1 description (YAML or JSON)',
    default: 'spec/openapi.yaml',
    path: true,
    top: 'spec',
  },
  out: {
    type: 'string',
    arg: 'DIR',
    help: 'package folder, replaced as a whole (only a folder\nthis command wrote, or an empty one)',
    default: 'dist/client',
    path: true,
  },
  name: { type: 'string', arg: 'NAME', help: 'npm package name', shown: '@dataapi/client' },
  version: {
    type: 'string',
    arg: 'V',
    help: "package version (semver); default: info.version (3.1 -> 3.1.0)\nauto: BASE's version raised by what changed since --base (dataapi diff:\nbreaking -> major, other contract changes -> minor, else patch), and major\nwhen the package's own declarations lose a type or method the description\ndid not remove (a template or generator change)",
  },
  // A git revision as often as a file: taken as written.
  base: {
    type: 'string',
    arg: 'REV|FILE',
    help: 'with --version auto: the previous release (a git revision or a file)',
  },
});
