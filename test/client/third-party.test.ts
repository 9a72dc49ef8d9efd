/**
 * The generated client compiles for third-party descriptions too (plain JSON operations, no
 * envelope, operations without operationId): petstore 3.0 and 3.1 and USPTO from
 * @readme/oas-examples, generated in-process and type-checked with the TypeScript compiler.
 */
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.ts';
import { removeWork, workDir } from '../work.ts';

const require = createRequire(import.meta.url);
const SPECS = ['3.0/json/petstore.json', '3.1/json/petstore.json', '3.0/json/uspto.json'];
// Inside the project, so that the clients' `dataapi/...` imports resolve. Its scratch folder goes
// with it (KEEP_WORK=1 keeps it for a look).
const WORK = workDir('client-third-party');
afterAll(() => removeWork(WORK));

describe('third-party descriptions', () => {
  it('generate a client that type-checks', async () => {
    const roots: string[] = [];
    for (const spec of SPECS) {
      const out = path.join(WORK, spec.replace(/[/.]/g, '-'));
      const { model } = await generate({
        spec: require.resolve(`@readme/oas-examples/${spec}`),
        out,
        kinds: ['client'],
        force: true,
        // Checked below, with a use of the client that instantiates its method types.
        typecheck: false,
        typescriptWorker: false, // TypeScript loaded once for all of them
      });
      if (!model) throw new Error('a forced run returns its model');
      expect(model.operations.length).toBeGreaterThan(0);
      // The client file plus a use of it, so that the method types are instantiated.
      const op = model.operations[0]!;
      await writeFile(
        path.join(out, 'use.ts'),
        `import { createClient } from './client/index.ts';\n` +
          `const c = createClient({ baseUrl: 'http://127.0.0.1:1' });\n` +
          `export const m: (...a: never[]) => Promise<unknown> = c[${JSON.stringify(op.id)}];\n`,
      );
      roots.push(path.join(out, 'client/index.ts'), path.join(out, 'use.ts'));
    }
    const config = ts.getParsedCommandLineOfConfigFile(
      path.resolve('tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    // The runtime through its declaration files (dist/), as another project reads it: its sources
    // are type-checked by `npm test`'s tsc, not again in this program.
    const program = ts.createProgram(roots, {
      ...config!.options,
      customConditions: [],
      noEmit: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || d.file.fileName.startsWith(WORK))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
