/** The toolkit's own folder (package.json, templates/), wherever this code runs from. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Sources run from generator/, the built package from dist/generator/: the root is above either.
export const PROJECT_ROOT = path.resolve(
  here,
  path.basename(path.dirname(here)) === 'dist' ? '../..' : '..',
);
