/**
 * generated/types.ts: openapi-typescript's output for the bundled document.
 *
 * openapi-typescript (through @redocly/openapi-core) looks names up in plain objects, so a
 * property, component or example key named like an Object.prototype method that needs a `this`
 * (`hasOwnProperty`, `valueOf`, ...) makes it throw, and the throw escapes as an uncaught
 * exception; a `__proto__` key holding a `$ref` sends it into endless recursion. Those words are swapped for placeholders on the way in and back on the way out;
 * they are plain identifiers, so putting them back is the same text in every position.
 */
import openapiTS, { astToString } from 'openapi-typescript';

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
const placeholder = (word: string) => `dataapiTrapWord${TRAPS.indexOf(word)}x`;
const RESTORE = /dataapiTrapWord(\d+)x/g;

export async function renderTypes(document: unknown): Promise<string> {
  let text = JSON.stringify(document);
  if (/dataapiTrapWord\d+x/.test(text)) {
    throw new Error('the description uses the reserved word "dataapiTrapWord<n>x"');
  }
  const trapped = new RegExp(TRAP.source).test(text);
  if (trapped) text = text.replace(TRAP, (word) => placeholder(word));
  // defaultNonNullable off: a field with a `default` stays optional in request types (the server
  // fills it in); emptyObjectsUnknown: an open object (a body the seed does not show) accepts fields.
  const options = { alphabetize: false, defaultNonNullable: false, emptyObjectsUnknown: true };
  const doc = JSON.parse(text) as unknown;
  qualifyDiscriminatorMappings(doc);
  const out = astToString(await openapiTS(doc as never, options));
  return trapped ? out.replace(RESTORE, (_m, i: string) => TRAPS[Number(i)] as string) : out;
}

type Obj = { [key: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A discriminator mapping value may be a bare schema name (`Cat`) as well as a reference;
 * openapi-typescript only resolves references, so bare names become `#/components/schemas/Cat`.
 */
function qualifyDiscriminatorMappings(doc: unknown): void {
  const schemas =
    isObj(doc) && isObj(doc['components']) && isObj(doc['components']['schemas'])
      ? doc['components']['schemas']
      : {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObj(node)) return;
    const mapping = isObj(node['discriminator']) ? node['discriminator']['mapping'] : undefined;
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
