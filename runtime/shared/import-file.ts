/**
 * Imports a user's module file. JavaScript as it is; TypeScript (handlers, a configuration file)
 * as it is where the process already reads it (a loader, vitest), else through tsx, imported
 * only then: no command needs a loader for anything but the user's own TypeScript.
 */
import { pathToFileURL } from 'node:url';

export class TypeScriptLoaderMissing extends Error {}

const isTypeScript = (file: string) => /\.[cm]?ts$/.test(file);

export async function importFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    if (!isTypeScript(file) || (err as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION')
      throw err;
  }
  let tsImport: (specifier: string, parent: string) => Promise<unknown>;
  try {
    ({ tsImport } = (await import('tsx/esm/api')) as unknown as { tsImport: typeof tsImport });
  } catch {
    throw new TypeScriptLoaderMissing(
      `${file} is TypeScript and no TypeScript loader is at hand (the tsx package): install it (npm i -D tsx), or compile it to JavaScript`,
    );
  }
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
