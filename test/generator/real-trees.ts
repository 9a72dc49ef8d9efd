/**
 * The trees generated from real descriptions (every one of @readme/oas-examples, the four
 * third-party fixtures, the odd and the split fixture) and one type-check over all of them,
 * shared by the files that prove them (real-descriptions.test.ts, third-party.test.ts): made once
 * per `vitest run`, by whichever file asks first, under a lock the others wait on; a file run
 * alone makes them for itself. The folder is in the run's own scratch folder (test/work.ts), so a
 * later run never reads an earlier run's trees, and global-setup.ts removes it with the run.
 */
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from '../../generator/generate.ts';
import { withFolderLock } from '../../generator/emit/lock.ts';
import { FIXTURES, OAS_EXAMPLES, typecheck, WORK, type Run } from './helpers.ts';

/** `3.0-petstore` and the like: every @readme/oas-examples description, both versions. */
export const EXAMPLES: [string, string][] = ['3.0', '3.1'].flatMap((v) =>
  readdirSync(path.join(OAS_EXAMPLES, v, 'json'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f): [string, string] => [
      `${v}-${f.replace(/\.json$/, '')}`,
      path.join(OAS_EXAMPLES, v, 'json', f),
    ]),
);
export const THIRD_PARTY: [string, string][] = readdirSync(path.join(FIXTURES, 'third-party'))
  .filter((f) => /\.(json|yaml)$/.test(f))
  .sort()
  .map((f): [string, string] => [f.replace(/\.\w+$/, ''), path.join(FIXTURES, 'third-party', f)]);
/** The project's own odd-but-valid fixtures. */
export const OWN: [string, string][] = [
  ['odd', path.join(FIXTURES, 'generator-odd.yaml')],
  ['split', path.join(FIXTURES, 'generator-split/openapi.yaml')],
];

/** What a test reads of one generate run (the result itself holds the whole model). */
export interface TreeResult {
  operations: number;
  /** The generated files' paths, relative to the tree. */
  files: string[];
  /** Each operation's id and whether it has an envelope. */
  model?: { id: string; envelope: boolean }[];
}

export interface RealTrees {
  /** The folder of the trees: `<base>/<name>/`. */
  base: string;
  /** By name: the run's result, or the message of its error. */
  results: Record<string, TreeResult | { error: string }>;
  /** tsc over every tree, as another project reads the runtime (its declaration files). */
  tsc: Run;
}

let mine: Promise<RealTrees> | undefined;

export function realTrees(): Promise<RealTrees> {
  mine ??= make();
  return mine;
}

async function make(): Promise<RealTrees> {
  const base = path.join(WORK, 'real-trees');
  const summary = path.join(base, 'trees.json');
  return withFolderLock(base, async () => {
    const done = await readFile(summary, 'utf8').catch(() => undefined);
    if (done) return JSON.parse(done) as RealTrees;
    const results: RealTrees['results'] = {};
    for (const [name, spec] of [...EXAMPLES, ...THIRD_PARTY, ...OWN]) {
      results[name] = await generate({
        spec,
        out: path.join(base, name),
        force: true,
        typecheck: false,
        // TypeScript loaded once for all the runs, not once per run in a worker of its own.
        typescriptWorker: false,
      }).then(
        (r): TreeResult => ({
          operations: r.operations,
          files: r.files.map((f) => f.path),
          ...(r.model
            ? {
                model: r.model.operations.map((o) => ({
                  id: o.id,
                  envelope: o.envelope !== undefined,
                })),
              }
            : {}),
        }),
        (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
      );
    }
    const tsc = await typecheck(base, true);
    const trees: RealTrees = { base, results, tsc };
    await writeFile(summary, JSON.stringify(trees));
    return trees;
  });
}
