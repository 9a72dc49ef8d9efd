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
