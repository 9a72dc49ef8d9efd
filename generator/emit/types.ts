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
  const out = astToString(await openapiTS(JSON.parse(text) as never, options));
  return trapped ? out.replace(RESTORE, (_m, i: string) => TRAPS[Number(i)] as string) : out;
}
