// The TypeScript-side work of a run: generated/types.ts through openapi-typescript, and the
// TypeScript compiler's syntax check of emitted files. Plain JavaScript (typed by
// typescript-side.d.mts) because it runs in a worker thread that starts without tsx: the loader's
// hooks cost more than the work on this path.
//
// openapi-typescript and the compiler are loaded from their CommonJS builds with require(): an ESM
// import of the compiler's 9 MB CommonJS file makes Node scan all of it for its export names and
// module syntax first, which costs more than compiling it. openapi-typescript's transform is called
// the way its openapiTS() calls it, without the Redocly lint and bundle passes openapiTS() runs
// first: the loader has already validated and bundled the document (every `$ref` internal), and
// those passes cost more than the transform itself on a large description. test/generator/
// types-render.test.ts holds the output to openapiTS()'s, byte for byte.
//
// openapi-typescript looks names up in plain objects, so a property, component or example key
// named like an Object.prototype method that needs a `this` (`hasOwnProperty`, `valueOf`, ...)
// makes it throw, and the throw escapes as an uncaught exception; a `__proto__` key holding a
// `$ref` sends it into endless recursion. Those words are swapped for placeholders on the way in
// and back on the way out; they are plain identifiers, so putting them back is the same text in
// every position.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { preloadCompiler } from '../speed/compiler-cache.mjs';
import { aliasRecursiveSchemas } from './types-recursive.mjs';

const require = createRequire(import.meta.url);
// The compiler from V8's code cache, found by openapi-typescript's require (and by ours).
preloadCompiler(createRequire(require.resolve('openapi-typescript/dist/lib/ts.cjs')));
const transformSchema = require('openapi-typescript/dist/transform/index.cjs');
const { resolveRef, scanDiscriminators } = require('openapi-typescript/dist/lib/utils.cjs');
const { astToString } = require('openapi-typescript/dist/lib/ts.cjs');
// The compiler openapi-typescript builds its nodes with (their kinds are that module's).
const typescript = createRequire(require.resolve('openapi-typescript/dist/lib/ts.cjs'))(
  'typescript',
);
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

/**
 * @param {unknown} document
 * @param {{ owned?: boolean; source?: string }} [options] owned: the caller gives the document away
 *   (it is changed); source: the JSON text the document was parsed from, when the caller has it
 * @returns {Promise<string>}
 */
export async function renderTypes(document, { owned = false, source } = {}) {
  // Words are looked for in the document's JSON. Its source text will do when no `\u` escape can
  // hide or join a word there (writing 13 MB of JSON again costs more than the search).
  const fromSource = source !== undefined && !source.includes('\\u');
  let text = fromSource ? source : JSON.stringify(document);
  if (/dataapiTrapWord\d+x|-dataapi-percent-/.test(text)) {
    throw new Error(
      'the description uses the reserved word "dataapiTrapWord<n>x" or "-dataapi-percent-"',
    );
  }
  const trapped = new RegExp(TRAP.source).test(text);
  if (trapped || (fromSource && !owned)) text = JSON.stringify(document);
  if (trapped) text = text.replace(TRAP, (word) => placeholder(word));
  let doc = trapped || !owned ? JSON.parse(text) : document;
  const needsTypeableWalk = TYPEABLE_HINT.test(text);
  text = ''; // 13 MB on a large description: not kept through the transform
  const percent = hasPercentKey(doc);
  if (percent) doc = shieldPercent(doc);
  qualifyDiscriminatorMappings(doc);
  if (needsTypeableWalk) typeableSchemas(doc);
  let out = nullableWithRequired(astToString(transformTypes(doc)));
  if (percent) out = out.replaceAll(PERCENT, '%');
  return trapped ? out.replace(RESTORE, (_m, i) => TRAPS[Number(i)]) : out;
}

// Two shapes openapi-typescript cannot type, rewritten in the copy it reads (the model keeps them):
// - `type: "null"` beside oneOf/anyOf branches (corpus vercel.com: null and one of string, ..., a
//   list of itself) admits null at most; it wrote `null & (... | Self[])`, which refers to itself
//   (TS2502). Typed `null`.
// - `type: "object"` with an `enum`: it reads each enum value as a schema, and throws on a string
//   (corpus mercedes-benz.com/configurator: "Expected SchemaObject, received string at .../oneOf/0").
//   Typed as the object without the enum.
// - `required` that is not a list in a schema (`required: true` on a property, draft-3 style:
//   corpus alchemyplatform accounts): openapi-typescript calls `required.includes` and throws.
//   Dropped (the normaliser reads it so too, with a schema-bad-keyword finding).
// - a property whose schema is no schema (`description: 'text'` written among the properties:
//   corpus alchemyplatform nft): openapi-typescript throws "Expected Schema Object or boolean".
//   Read as {} (the normaliser does so too, with a schema-not-object finding).
// The walk costs ~50 ms on GitHub's 13 MB description: skipped where no shape can occur.
const TYPEABLE_HINT = /"type":\s*"null"|"enum"\s*:|"required":\s*[^[\s]|"properties"\s*:/;
/** Objects whose `required` is a boolean by right: a parameter, a header, a request body. */
const requiredByRight = (node) => 'in' in node || 'schema' in node || 'content' in node;
export function typeableSchemas(node) {
  if (Array.isArray(node)) {
    for (const v of node) typeableSchemas(v);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (node.type === 'null') {
    delete node.oneOf;
    delete node.anyOf;
  }
  if (node.type === 'object' && Array.isArray(node.enum)) delete node.enum;
  const required = node.required;
  if (required !== undefined && !Array.isArray(required) && typeof required !== 'object')
    if (!requiredByRight(node)) delete node.required;
  const props = node.properties;
  // Only in an object schema: a map of properties may have one named `properties` (open-eo).
  const objectSchema =
    node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  if (objectSchema && props !== null && typeof props === 'object' && !Array.isArray(props))
    for (const [k, v] of Object.entries(props))
      if (typeof v !== 'boolean' && (v === null || typeof v !== 'object')) props[k] = {};
  for (const v of Object.values(node)) typeableSchemas(v);
}

// openapi-typescript writes an allOf whose parent lists required properties of a `$ref`'d branch
// as `WithRequired<Ref, "a" | "b">` with `K extends keyof T`. When the target is nullable
// (`T | null`), `keyof T` is never and types.ts does not compile (corpus: plaid.com). The allOf's
// object branch already rules null out, so the helper reads the keys of the non-null part.
const WITH_REQUIRED =
  /^type WithRequired<T, K extends keyof T> = T & \{\n(\s+)\[P in K\]-\?: T\[P\];\n\};$/m;
export function nullableWithRequired(text) {
  return text.replace(
    WITH_REQUIRED,
    (_m, indent) =>
      `type WithRequired<T, K extends keyof NonNullable<T>> = NonNullable<T> & {\n${indent}[P in K]-?: NonNullable<T>[P];\n};`,
  );
}

// openapi-typescript builds its internal pointers from keys and reads them back as URI fragments
// (percent-decoding them): a key holding a `%` that is not percent-encoding (the path
// `/rates/100%`) makes it throw "URI malformed". Such a `%` is swapped for a placeholder on the
// way in, in keys and in the `$ref`s that name them, and back on the way out. Its dashes keep a
// key that held a `%` quoted in the output, as the `%` itself would.
const PERCENT = '-dataapi-percent-';

function hasPercentKey(node) {
  if (Array.isArray(node)) return node.some(hasPercentKey);
  if (!isObj(node)) return false;
  return Object.entries(node).some(([k, v]) => k.includes('%') || hasPercentKey(v));
}

function shieldPercent(node) {
  if (Array.isArray(node)) return node.map(shieldPercent);
  if (!isObj(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    const shielded = key.replaceAll('%', PERCENT);
    out[shielded] =
      key === '$ref' && typeof value === 'string' ? shieldRef(value) : shieldPercent(value);
  }
  return out;
}

/** `#/paths/~1rates~1100%25` -> `#/paths/~1rates~1100dataapiTrapWord10x`. */
function shieldRef(ref) {
  if (!ref.startsWith('#')) return ref;
  let pointer;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return ref; // the loader reports a broken fragment before this runs
  }
  if (!pointer.includes('%')) return ref;
  return (
    '#' +
    pointer
      .split('/')
      .map((t) => encodeURIComponent(t.replaceAll('%', PERCENT)))
      .join('/')
  );
}

/**
 * openapi-typescript's transform with the context its openapiTS() builds for these options:
 * defaultNonNullable off (a field with a `default` stays optional in request types: the server
 * fills it in) and emptyObjectsUnknown (an open object, a body the description leaves open,
 * accepts fields); every other option at openapiTS()'s default.
 */
function transformTypes(schema) {
  const options = { alphabetize: false, defaultNonNullable: false, emptyObjectsUnknown: true };
  const ctx = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: false,
    discriminators: scanDiscriminators(schema, options),
    emptyObjectsUnknown: true,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    silent: false,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve($ref) {
      return resolveRef(schema, $ref, { silent: false });
    },
  };
  keepOwnDiscriminatorProperties(schema, ctx.discriminators);
  const statements = transformSchema(schema, ctx);
  aliasRecursiveSchemas(typescript, statements);
  return statements;
}

/**
 * A schema that extends (allOf/anyOf) one with a discriminator, and is not in its mapping, gets
 * the discriminator property written by openapi-typescript (`class: "Name"`, the implicit value)
 * beside its own property of that name: a duplicate identifier that does not compile (corpus:
 * apple.com/sirikit-cloud-media). Its own property is the one kept, required as the written one
 * was: the schema counts as handled, so openapi-typescript writes the property once.
 */
function keepOwnDiscriminatorProperties(doc, discriminators) {
  for (const [ref, { propertyName }] of Object.entries(discriminators.objects)) {
    if (discriminators.refsHandled.includes(ref)) continue;
    const schema = resolveRef(doc, ref, { silent: true });
    if (!isObj(schema) || schema.discriminator) continue;
    if (!Array.isArray(schema.allOf) && !Array.isArray(schema.anyOf)) continue;
    if (!isObj(schema.properties) || !Object.hasOwn(schema.properties, propertyName)) continue;
    discriminators.refsHandled.push(ref);
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (!required.includes(propertyName)) schema.required = [...required, propertyName];
  }
}

const isObj = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A discriminator mapping value may be a bare schema name (`Cat`) as well as a reference;
 * openapi-typescript only resolves references, so bare names become `#/components/schemas/Cat`.
 */
export function qualifyDiscriminatorMappings(doc) {
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
 * Parse trees the syntax check made, kept for the tree's type-check (typecheck-tree.mjs), which
 * would otherwise parse every file again (types.ts alone: a second or more on a large description).
 * @type {Map<string, import('typescript').SourceFile>}
 */
export const parsed = new Map();

/**
 * Every emitted file's first parse error, and without `keep` types.ts's own type errors (with
 * `keep`, the parse trees stay in `parsed` for the tree's type-check, which checks them).
 * @param {{ path: string; content: string }[]} files
 * @param {boolean} keep
 * @returns {string[]}
 */
export function syntaxErrors(files, keep) {
  return files
    .map((f) => syntaxError(f, keep) ?? (keep ? undefined : typeErrors(f)))
    .filter((e) => e !== undefined);
}

/**
 * The first parse error of an emitted TypeScript file, with its line and an excerpt; undefined
 * when it parses (or is not TypeScript). `keep`: its parse tree stays in `parsed`.
 * @param {{ path: string; content: string }} file
 * @param {boolean} [keep]
 * @returns {string | undefined}
 */
export function syntaxError(file, keep = false) {
  if (!/\.(ts|tsx|mts)$/.test(file.path)) return undefined;
  const ts = (compiler ??= require('typescript'));
  // ES2022: the type-check's target (the parser's output is the same for any ES2015+ target).
  // JSDoc parsed as `tsc` parses it (typecheck-tree.mjs): in a .ts file only what can give a type
  // error, not the descriptions openapi-typescript writes above every member; a .ts file's JSDoc
  // gives no parse error either way.
  const source = ts.createSourceFile(
    file.path,
    file.content,
    {
      languageVersion: ts.ScriptTarget.ES2022,
      jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors,
    },
    false,
    ts.ScriptKind.TS,
  );
  if (keep) parsed.set(file.path, source);
  const d = source.parseDiagnostics?.[0];
  if (!d) return undefined;
  const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
  const excerpt = file.content.split('\n')[line]?.trim().slice(0, 160) ?? '';
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  return `emitted ${file.path} does not parse: ${message} at line ${line + 1}:${character + 1}\n  ${excerpt}`;
}

/**
 * The ES5 library's text and parse tree, made once per thread: every check reads the same file
 * with the same options, and a program takes a parse tree another one made (as the language
 * service shares them) instead of parsing the library again (70 ms a description).
 */
let es5Text;
let es5Source;
const es5File = () => path.join(path.dirname(require.resolve('typescript')), 'lib.es5.d.ts');

/**
 * The first type errors of generated types.ts (it imports nothing: the compiler's ES5 library is
 * all it needs), or undefined when it type-checks. Every types.ts is checked: openapi-typescript's
 * output breaks in more ways than deep indexed access (a discriminator property it adds beside
 * the schema's own: corpus apple.com/sirikit-cloud-media), and generate must not exit 0 then.
 * @param {{ path: string; content: string }} file
 * @returns {string | undefined}
 */
export function typeErrors(file) {
  if (file.path !== 'types.ts') return undefined;
  const ts = (compiler ??= require('typescript'));
  const texts = new Map([
    ['/types.ts', file.content],
    ['/lib.es5.d.ts', (es5Text ??= readFileSync(es5File(), 'utf8'))],
  ]);
  const host = {
    getSourceFile: (name, version) =>
      name === '/lib.es5.d.ts'
        ? (es5Source ??= ts.createSourceFile(name, es5Text, version))
        : texts.has(name)
          ? ts.createSourceFile(name, texts.get(name), version)
          : undefined,
    getDefaultLibFileName: () => '/lib.es5.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => texts.has(f),
    readFile: (f) => texts.get(f),
  };
  const options = { noEmit: true, strict: true, noLib: true, target: ts.ScriptTarget.ES2022 };
  const program = ts.createProgram(['/lib.es5.d.ts', '/types.ts'], options, host);
  const source = program.getSourceFile('/types.ts');
  const errors = program.getSemanticDiagnostics(source);
  if (errors.length === 0) return undefined;
  const lines = errors.slice(0, 3).map((d) => {
    const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 200);
    return `  types.ts(${line + 1},${character + 1}): error TS${d.code}: ${message}`;
  });
  return [`emitted types.ts does not type-check (${errors.length} errors):`, ...lines].join('\n');
}
