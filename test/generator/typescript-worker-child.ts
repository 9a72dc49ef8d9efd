/**
 * typescript-worker.test.ts's two generations in a process of their own: whether TypeScript is
 * loaded on the calling thread must be read in a process that had not loaded it before (a vitest
 * worker may have, for an earlier file). Prints one JSON line.
 *
 * Usage: node --import tsx test/generator/typescript-worker-child.ts <spec> <worker-out> <here-out>
 */
import { createRequire } from 'node:module';
import { generate } from '../../generator/generate.ts';

const [spec, workerOut, hereOut] = process.argv.slice(2) as [string, string, string];
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((f) =>
    /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]typescript\.js$/.test(f),
  );
const before = loaded();
const inWorker = await generate({ spec, out: workerOut, force: true });
const afterWorker = loaded();
const here = await generate({ spec, out: hereOut, force: true, typescriptWorker: false });
process.stdout.write(
  `${JSON.stringify({ before, afterWorker, afterHere: loaded(), typechecked: [inWorker.typechecked, here.typechecked] })}\n`,
);
