/**
 * The packed client's JavaScript, built by esbuild from the stage's entry: one ES module and one
 * CommonJS file with the runtime and openapi-fetch inside (no dependencies to install), plus the
 * Node and browser versions of the file-path reader, which the entry reaches through the
 * package's `#file-path` import (package.json `imports` conditions pick one).
 */
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { PackError } from './errors.ts';
import { fromSources } from './package-dir.ts';

/** Import specifier of the file-path reader inside the package (see package.json `imports`). */
export const FILE_PATH_IMPORT = '#file-path';

/** What may end up in the client's JavaScript: its runtime, the model's helpers, openapi-fetch. */
// openapi-fetch may sit outside the root: node_modules as a link (worktrees, pnpm), or beside an
// installed toolkit (its inputs then start with ../).
// The runtime comes from the sources in this repository, from dist/ in an installed toolkit.
const ALLOWED_INPUT =
  /^(?:(?:dist\/)?(?:runtime\/(?:client|shared)\/|model\/)|<stdin>$|index\.ts$)|(?:^|\/)(?:node_modules\/|\.\.\/)openapi-fetch\//;

export interface BundleInput {
  root: string;
  entry: string;
  banner: string;
}

/** Output files by package path (`dist/esm/index.js`, ...). */
export type BundleFiles = Map<string, string>;

/**
 * Library code is marked side-effect free so that what the client does not call (the shared
 * runtime's Ajv validator, for one) is dropped; the inputs check below proves it was.
 */
const pureLibraries: esbuild.Plugin = {
  name: 'dataapi-pure-libraries',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, async (args) => {
      if (args.pluginData === 'inner' || args.path.startsWith('node:')) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'inner',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { ...resolved, sideEffects: false };
    });
    // The Node-only reader stays outside the bundle, behind the package's conditional import.
    build.onResolve({ filter: /\/file-path\.[jt]s$/ }, (args) =>
      /[\\/]multipart\.[jt]s$/.test(args.importer)
        ? { path: FILE_PATH_IMPORT, external: true }
        : undefined,
    );
  },
};

export async function bundleClient(input: BundleInput): Promise<BundleFiles> {
  const { build } = await import('esbuild');
  const common = {
    absWorkingDir: input.root,
    bundle: true,
    write: false,
    metafile: true,
    target: 'es2022',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    banner: { js: input.banner },
    // In this repository `dataapi/...` means the sources (package.json's dataapi-source).
    ...(fromSources(input.root) ? { conditions: ['dataapi-source'] } : {}),
  } satisfies esbuild.BuildOptions;
  const files: BundleFiles = new Map();
  for (const format of ['esm', 'cjs'] as const) {
    const ext = format === 'esm' ? 'js' : 'cjs';
    const main = await build({
      ...common,
      format,
      stdin: {
        contents: input.entry,
        resolveDir: input.root,
        sourcefile: 'index.ts',
        loader: 'ts',
      },
      plugins: [pureLibraries],
      outfile: `dist/${format}/index.${ext}`,
    });
    checkInputs(main.metafile);
    files.set(`dist/${format}/index.${ext}`, main.outputFiles[0]!.text);
    for (const variant of ['node', 'browser'] as const) {
      const stem = `runtime/client/${variant === 'node' ? 'file-path' : 'file-path-browser'}`;
      const source = fromSources(input.root) ? `${stem}.ts` : `dist/${stem}.js`;
      const reader = await build({
        ...common,
        format,
        entryPoints: [source],
        platform: variant,
        outfile: `dist/${format}/file-path.${variant}.${ext}`,
        external: ['node:*'],
      });
      files.set(`dist/${format}/file-path.${variant}.${ext}`, reader.outputFiles[0]!.text);
    }
  }
  return files;
}

function checkInputs(metafile: esbuild.Metafile): void {
  const output = Object.values(metafile.outputs)[0];
  const carried = Object.entries(output?.inputs ?? {})
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([name]) => name)
    .filter((name) => !ALLOWED_INPUT.test(name));
  if (carried.length > 0)
    throw new PackError(
      `the client's JavaScript would carry ${carried.slice(0, 5).join(', ')}: only its runtime and openapi-fetch may go in`,
    );
}
