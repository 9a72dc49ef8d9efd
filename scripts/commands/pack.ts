/** `dataapi pack client`: write the typed client as a ready-to-publish npm package folder. */
import path from 'node:path';
import type { Command } from '../command.ts';
import { guard, parseFlags, UsageError } from '../args.ts';
import { SpecError } from '../../generator/load.ts';

const usage = `Usage: dataapi pack client [--spec spec/openapi.yaml] [--out dist/client] [--name NAME] [--version V]

  --spec FILE     OpenAPI 3.0/3.1 description (YAML or JSON)        default: spec/openapi.yaml
  --out DIR       package folder, replaced as a whole (only a folder
                  this command wrote, or an empty one)              default: dist/client
  --name NAME     npm package name                                  default: @dataapi/client
  --version V     package version (semver)          default: info.version (3.1 -> 3.1.0)

Writes an npm package: ES module and CommonJS builds with their declarations, an exports map,
engines, sideEffects: false, LICENSE and a README generated from the description. The runtime
is bundled in: the package has no dependencies. Same input, same bytes.

Then: npm pack ./DIR (a tarball to hand out or test), or npm publish ./DIR (the ./ matters:
npm reads a bare dist/client as a GitHub repository).

Exit codes: 0 written, 1 the client could not be built, 2 bad input (spec, flags, name, version,
an --out folder this command did not write).`;

/** npm reads `dist/client` as the GitHub repository dist/client: a folder must look like a path. */
export function npmFolderArg(dir: string): string {
  if (path.isAbsolute(dir) || /^\.\.?([/\\]|$)/.test(dir)) return dir;
  return `.${path.sep}${dir}`;
}

export const command: Command = {
  summary: 'write the typed client as an npm package folder (ESM + CJS + .d.ts)',
  usage,
  run: (argv) =>
    guard(async () => {
      const { values, positionals } = parseFlags(
        argv,
        {
          spec: { type: 'string', default: 'spec/openapi.yaml' },
          out: { type: 'string', default: 'dist/client' },
          name: { type: 'string' },
          version: { type: 'string' },
        },
        usage,
        { max: 2 }, // `client`; a further word is refused below with the usage
      );
      const [what, ...extra] = positionals;
      if (what === undefined) throw new UsageError(`what to pack? (client)\n\n${usage}`);
      if (what !== 'client')
        throw new UsageError(`dataapi pack can pack "client", not ${JSON.stringify(what)}`);
      if (extra.length > 0)
        throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}\n\n${usage}`);
      const { packClient, PackError, PackInputError } =
        await import('../../generator/pack/index.ts');
      try {
        const result = await packClient({
          spec: values.spec as string,
          out: values.out as string,
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.version !== undefined ? { version: values.version } : {}),
        });
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
