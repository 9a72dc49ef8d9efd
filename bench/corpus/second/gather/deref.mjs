// Dereference one extracted description with @apidevtools/swagger-parser; updates results/<id>.json.
// usage: node deref.mjs <id>
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
const require = createRequire('/work/main/package.json');
const SwaggerParser = require('@apidevtools/swagger-parser');
const SCRATCH = process.env.SCRATCH ?? '/work/corpus2';
const id = process.argv[2];
const file = path.join(SCRATCH, 'results', `${id}.json`);
const rec = JSON.parse(fs.readFileSync(file, 'utf8'));
try {
  await SwaggerParser.dereference(path.join(SCRATCH, 'out', id, rec.root));
  rec.dereferences = true;
  delete rec.dereferenceError;
} catch (e) {
  rec.dereferences = false;
  rec.dereferenceError = String(e?.message ?? e)
    .split('\n')[0]
    .slice(0, 300);
}
fs.writeFileSync(file, JSON.stringify(rec, null, 2));
console.log(id, rec.dereferences, rec.dereferenceError ?? '');
