/** The toolkit's own folder (package.json, templates/, generator/), wherever this code runs from. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A bundle of the generator (scripts/generate-bundle.js) sets import.meta.url to this file's URL.
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
