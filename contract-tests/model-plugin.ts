/**
 * The suite's `model.ts` as vitest loads it in `dataapi contract`: the model read from model.json
 * beside it, instead of the generated module, which holds the model as one JSON string literal
 * (GitHub's: 10 MB). Transforming that module (and its source map) cost the main thread tens of
 * seconds, and each worker received and evaluated its whole text; reading the JSON costs one
 * parse per worker. Both hold the same model (the generator writes them from one value).
 */
import path from 'node:path';

export function modelFromJson(generatedDir: string) {
  const source = path.join(generatedDir, 'model.ts');
  const json = path.join(generatedDir, 'model.json');
  return {
    name: 'dataapi:model-from-json',
    enforce: 'pre' as const,
    load(id: string): string | null {
      if (path.normalize(id.split('?')[0] ?? '') !== source) return null;
      return [
        `import { readFileSync } from 'node:fs';`,
        `export const model = JSON.parse(readFileSync(${JSON.stringify(json)}, 'utf8'));`,
        '',
      ].join('\n');
    },
  };
}

interface Resolver {
  resolve(source: string, importer?: string, options?: object): Promise<unknown>;
}

/**
 * The suite's test files each import the same two modules (`dataapi/contract`, `../model.js`)
 * from the same folder: resolved once per folder and the answer reused, instead of vite's resolver
 * running for every file (GitHub's 1,223 files: about a second of the runner's thread).
 */
export function suiteResolveOnce(generatedDir: string) {
  const suite = path.join(generatedDir, 'contract-tests') + path.sep;
  const known = new Map<string, Promise<unknown>>();
  return {
    name: 'dataapi:suite-resolve-once',
    enforce: 'pre' as const,
    resolveId(this: Resolver, source: string, importer?: string, options?: object) {
      if (!importer?.startsWith(suite)) return null;
      const key = `${path.dirname(importer)}\0${source}`;
      let found = known.get(key);
      if (!found) {
        found = this.resolve(source, importer, { ...options, skipSelf: true });
        known.set(key, found);
      }
      return found;
    },
  };
}
