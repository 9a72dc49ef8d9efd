/**
 * A generate run in its own process for test/generator/emit.test.ts: it stops at the swap point,
 * says `ready` on stdout and waits there to be killed.
 * Usage: node --import tsx test/generator/generate-child.ts <spec> <out>
 */
import { generate } from '../../generator/generate.ts';

const [spec, out] = process.argv.slice(2);
if (!spec || !out) throw new Error('usage: generate-child.ts <spec> <out>');
setInterval(() => {}, 60_000); // keeps the process alive while it waits at the swap point
await generate({
  spec,
  out,
  typecheck: false, // as in emit.test.ts: the swap point is what is tested
  hooks: {
    beforeSwap: () => {
      process.stdout.write('ready\n');
      return new Promise<void>(() => {});
    },
  },
});
process.stdout.write('finished\n');
process.exit(0);
