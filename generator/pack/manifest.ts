/**
 * The packed client's package.json: the exports map (types first in each condition, ES module and
 * CommonJS each with their own declarations, so node16/nodenext and bundler resolution both
 * find the right ones), the conditional `#file-path` import (Node reads paths; elsewhere the
 * browser stand-in), engines, `sideEffects: false` and no dependencies.
 */
import { PackInputError } from './errors.ts';
import { FILE_PATH_IMPORT } from './bundle.ts';

export interface ManifestInput {
  name: string;
  version: string;
  description: string;
  license: string;
}

/** npm's rules for a package name (lower case, URL-safe, optional scope, at most 214 characters). */
export function checkPackageName(name: string): string {
  const ok =
    name.length <= 214 &&
    /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name) &&
    !/^(?:node_modules|favicon\.ico)$/.test(name);
  if (!ok)
    throw new PackInputError(
      `${JSON.stringify(name)} is not a valid npm package name (lower case letters, digits, - . _ ~, optionally @scope/name)`,
    );
  return name;
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/**
 * The package version: `--version` as given (it must be semver), or the description's
 * info.version, completed to three numbers when it has one or two (`3.1` -> `3.1.0`).
 */
export function packageVersion(explicit: string | undefined, infoVersion: string): string {
  if (explicit !== undefined) {
    if (!SEMVER.test(explicit))
      throw new PackInputError(
        `--version ${JSON.stringify(explicit)} is not a semver version (e.g. 1.2.3)`,
      );
    return explicit;
  }
  const v = infoVersion.trim().replace(/^v(?=\d)/, '');
  const short = /^(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/.exec(v);
  if (short) return `${short[1]}.${short[2] ?? '0'}.0`;
  if (SEMVER.test(v)) return v;
  throw new PackInputError(
    `info.version ${JSON.stringify(infoVersion)} is not a semver version; pass --version (e.g. --version 1.0.0)`,
  );
}

export function packageJson(input: ManifestInput): string {
  const manifest = {
    name: input.name,
    version: input.version,
    description: input.description,
    license: input.license,
    type: 'module',
    sideEffects: false,
    engines: { node: '>=20' },
    exports: {
      '.': {
        import: { types: './dist/esm/index.d.ts', default: './dist/esm/index.js' },
        require: { types: './dist/cjs/index.d.cts', default: './dist/cjs/index.cjs' },
      },
      './package.json': './package.json',
    },
    imports: {
      [FILE_PATH_IMPORT]: {
        node: {
          import: './dist/esm/file-path.node.js',
          require: './dist/cjs/file-path.node.cjs',
        },
        default: {
          import: './dist/esm/file-path.browser.js',
          require: './dist/cjs/file-path.browser.cjs',
        },
      },
    },
    // For tools that predate `exports`.
    main: './dist/cjs/index.cjs',
    module: './dist/esm/index.js',
    types: './dist/cjs/index.d.cts',
    files: ['dist', 'THIRD-PARTY-NOTICES.md'],
    keywords: ['openapi', 'client', 'typescript'],
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
