// The TypeScript-side work of a run: generated/types.ts through openapi-typescript, and the
// TypeScript compiler's syntax check of emitted files. Plain JavaScript (typed by
// typescript-side.d.mts) because it runs in a worker thread that starts without tsx: the loader's
// hooks cost more than the work on this path. The compiler is loaded with require(), which is
// several times faster than import() for its 9 MB CommonJS file.
//
// openapi-typescript (through @redocly/openapi-core) looks names up in plain objects, so a
// property, component or example key named like an Object.prototype method that needs a `this`
// (`hasOwnProperty`, `valueOf`, ...) makes it throw, and the throw escapes as an uncaught
// exception; a `__proto__` key holding a `$ref` sends it into endless recursion. Those words are
// swapped for placeholders on the way in and back on the way out; they are plain identifiers, so
// putting them back is the same text in every position.
import { createRequire } from 'node:module';
import openapiTS, { astToString } from 'openapi-typescript';

const require = createRequire(import.meta.url);
/** @type {typeof import('typescript') | undefined} */
let compiler;

const TRAPS = [
  '__proto__',
  'hasOwnProperty',
  'propertyIsEnumerable',
  'valueOf',
  'toLocaleString',
  'isPrototypeOf',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
];
const TRAP = new RegExp(`(?<![A-Za-z0-9_$])(${TRAPS.join('|')})(?![A-Za-z0-9_$])`, 'g');
const placeholder = (word) => `dataapiTrapWord${TRAPS.indexOf(word)}x`;
const RESTORE = /dataapiTrapWord(\d+)x/g;

/** @param {unknown} document @returns {Promise<string>} */
export async function renderTypes(document) {
  let text = JSON.stringify(document);
  if (/dataapiTrapWord\d+x/.test(text)) {
    throw new Error('the description uses the reserved word "dataapiTrapWord<n>x"');
  }
  const trapped = new RegExp(TRAP.source).test(text);
  if (trapped) text = text.replace(TRAP, (word) => placeholder(word));
  // defaultNonNullable off: a field with a `default` stays optional in request types (the server
  // fills it in); emptyObjectsUnknown: an open object (a body the description leaves open) accepts fields.
  const options = { alphabetize: false, defaultNonNullable: false, emptyObjectsUnknown: true };
  const doc = JSON.parse(text);
  qualifyDiscriminatorMappings(doc);
  const out = astToString(await openapiTS(doc, options));
  return trapped ? out.replace(RESTORE, (_m, i) => TRAPS[Number(i)]) : out;
}

const isObj = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A discriminator mapping value may be a bare schema name (`Cat`) as well as a reference;
 * openapi-typescript only resolves references, so bare names become `#/components/schemas/Cat`.
 */
function qualifyDiscriminatorMappings(doc) {
  const schemas =
    isObj(doc) && isObj(doc.components) && isObj(doc.components.schemas)
      ? doc.components.schemas
      : {};
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObj(node)) return;
    const mapping = isObj(node.discriminator) ? node.discriminator.mapping : undefined;
    if (isObj(mapping)) {
      for (const [key, value] of Object.entries(mapping)) {
        if (typeof value === 'string' && !value.includes('/') && Object.hasOwn(schemas, value))
          mapping[key] = `#/components/schemas/${value.replace(/~/g, '~0')}`;
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(doc);
}

/**
 * The first parse error of an emitted TypeScript file, with its line and an excerpt; undefined
 * when it parses (or is not TypeScript).
 * @param {{ path: string; content: string }} file
 * @returns {string | undefined}
 */
export function syntaxError(file) {
  if (!/\.(ts|tsx|mts)$/.test(file.path)) return undefined;
  const ts = (compiler ??= require('typescript'));
  const source = ts.createSourceFile(
    file.path,
    file.content,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const d = source.parseDiagnostics?.[0];
  if (!d) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
  const excerpt = file.content.split('\n')[line]?.trim().slice(0, 160) ?? '';
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  return `emitted ${file.path} does not parse: ${message} at line ${line + 1}:${character + 1}\n  ${excerpt}`;
}
