/** `dataapi pack client`: write the typed client as a ready-to-publish npm package folder. */
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { SpecError } from '../../generator/load.ts';
import { PACK_FLAGS } from '../flags/pack.ts';
import { flagLines } from '../flags/usage.ts';

const usage = `Usage: dataapi pack client [--spec spec/openapi.yaml] [--out dist/client] [--name NAME] [--version V]
       dataapi pack client --version auto --base REV [...]

${flagLines(PACK_FLAGS)}

Writes an npm package: ES module and CommonJS builds with their declarations, an exports map,
engines, sideEffects: false, LICENSE and a README generated from the description. The runtime
is bundled in: the package has no dependencies. Same input, same bytes.

Then: npm pack ./DIR (a tarball to hand out or test), or npm publish ./DIR (the ./ matters:
npm reads a bare dist/client as a GitHub repository).

Exit codes: 0 written, 1 the client could not be built, 2 bad input (spec, flags, name, version,
an --out folder this command did not write).`;

/** `--version auto`: decide the version from the diff, pack, and check the declarations. */
async function packAuto(
  options: { spec: string; out: string; name?: string },
  base: string,
): ReturnType<typeof import('../../generator/pack/index.ts').packClient> {
  const { packClient } = await import('../../generator/pack/index.ts');
  const { bump, higher, versionFromDiff } = await import('../../generator/pack/auto-version.ts');
  const { basePackage } = await import('../../generator/pack/base-package.ts');
  const { surfaceBreaks, surfaceOf } = await import('../../generator/pack/surface.ts');
  const decision = await versionFromDiff({ base, spec: options.spec });
  let { level } = decision;
  const reasons = [...decision.reasons];
  let result = await packClient({ ...options, version: decision.version });
  const previous = await basePackage({ base, spec: options.spec, cwd: process.cwd() });
  if ('skipped' in previous) reasons.push(`declarations not compared: ${previous.skipped}`);
  else {
    if (previous.reused)
      reasons.push(
        `declarations compared with BASE's package as packed by an earlier run (node_modules/.cache/dataapi/base-package)`,
      );
    try {
      const breaks = surfaceBreaks(
        surfaceOf(previous.dir),
        surfaceOf(options.out),
        decision.removedOperations,
      );
      for (const b of breaks)
        reasons.push(
          b.cause === 'toolkit'
            ? `declarations: the ${b.kind} ${b.name} is gone, and the description did not remove it: a template or generator change breaks the client`
            : `declarations: the ${b.kind} ${b.name} is gone (its operation was removed)`,
        );
      if (breaks.length > 0) level = higher(level, 'major');
    } finally {
      await previous.cleanup();
    }
  }
  const version = bump(decision.base, level);
  if (version !== result.version) result = await packClient({ ...options, version });
  process.stderr.write(
    `dataapi pack client: --version auto: ${version} (${level} from ${decision.base}, BASE ${base})\n` +
      reasons.map((r) => `  ${r}\n`).join(''),
  );
  return result;
}

/** npm reads `dist/client` as the GitHub repository dist/client: a folder must look like a path. */
export function npmFolderArg(dir: string): string {
  if (path.isAbsolute(dir) || /^\.\.?([/\\]|$)/.test(dir)) return dir;
  return `.${path.sep}${dir}`;
}

export const command: Command = {
  usage,
  run: (argv) =>
    guard(async () => {
      const { values, positionals } = parseFlags(
        argv,
        PACK_FLAGS,
        usage,
        { max: 2 }, // `client`; a further word is refused below with the usage
      );
      const [what, ...extra] = positionals;
      if (what === undefined) throw new UsageError(`what to pack? (client)\n\n${usage}`);
      if (what !== 'client')
        throw new UsageError(`dataapi pack can pack "client", not ${JSON.stringify(what)}`);
      if (extra.length > 0)
        throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}\n\n${usage}`);
      const auto = values.version === 'auto';
      if (auto && values.base === undefined)
        throw new UsageError('--version auto needs --base REV (the previous release)');
      if (!auto && values.base !== undefined)
        throw new UsageError('--base is read only with --version auto');
      const { packClient, PackError, PackInputError } =
        await import('../../generator/pack/index.ts');
      try {
        const options = {
          spec: values.spec,
          out: values.out,
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.version !== undefined ? { version: values.version } : {}),
        };
        const result = auto ? await packAuto(options, values.base!) : await packClient(options);
        const bytes = result.files.reduce((n, f) => n + f.bytes, 0);
        const out = npmFolderArg(path.normalize(result.out));
        process.stdout.write(
          `dataapi pack client: ${result.name}@${result.version} (${result.operations} operations) in ${out}: ${result.files.length} files, ${(bytes / 1024).toFixed(1)} kB\n` +
            `Next: npm pack ${out}   (-> ${result.tarball}), or npm publish ${out}\n`,
        );
        return 0;
      } catch (err) {
        const message = (err as Error).message;
        if (err instanceof SpecError || err instanceof PackInputError) {
          process.stderr.write(`dataapi pack client: ${message}\nNothing was written.\n`);
          return 2;
        }
        if (err instanceof PackError) {
          process.stderr.write(`dataapi pack client: ${message}\nNothing was written.\n`);
          return 1;
        }
        throw err;
      }
    }),
};
