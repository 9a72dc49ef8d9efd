/** The implementer's handler file for a scaffolded operation: created once, never overwritten. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as prettier from 'prettier';
import { toFileStem } from '../../model/identifiers.ts';

export interface HandlerFile {
  path: string;
  created: boolean;
  /** Dry runs: the file that would be created (absent when one is already there). */
  source?: string;
}

export function handlerPath(handlersDir: string, id: string): string {
  return path.join(handlersDir, `${toFileStem(id, 'operation')}.ts`);
}

export async function handlerSource(
  id: string,
  route: string,
  payload: unknown,
  importFrom: string,
): Promise<string> {
  // `id` passed the identifier check of plan(); the payload is JSON, which is valid TypeScript.
  const text = `/**
 * Handler of ${id} (${route.replace(/\*\//g, '*\\/')}), created once by \`dataapi scaffold\`. It is
 * yours: regeneration never overwrites it. It receives the validated parameters and body and
 * returns the payload only; the server adds the envelope and the business status code.
 */
import type { Handlers } from ${JSON.stringify(importFrom)};

export const ${id}: Handlers[${JSON.stringify(id)}] = async (input) => {
  void input;
  // TODO: compute the real answer. This is the example of the spec.
  return ${JSON.stringify(payload, null, 2)};
};
`;
  const config = (await prettier.resolveConfig(path.join(process.cwd(), 'x.ts'))) ?? {};
  return prettier.format(text, { ...config, parser: 'typescript' });
}

/** Writes the handler unless a file is already there (`wx`: never overwrite). */
export async function createHandler(file: string, source: string): Promise<HandlerFile> {
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, source, { flag: 'wx' });
    return { path: file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { path: file, created: false };
    throw err;
  }
}

/** The import specifier of the generated server from the handlers folder. */
export function serverImport(handlersDir: string, out: string): string {
  const rel = path
    .relative(handlersDir, path.join(out, 'server', 'index.ts'))
    .split(path.sep)
    .join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
