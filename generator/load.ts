/**
 * Load: read, parse, validate and bundle an OpenAPI 3.0/3.1 description (Swagger 2.0 converted first).
 * Every failure is a SpecError naming the file, the JSON pointer and (for YAML and JSON text)
 * the line and column, so a user can go straight to the spot.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isObject, type Obj } from '../model/object.ts';
import { joinPointer, splitPointer } from '../model/pointer.ts';
import { hoistDeepSchemaRefs } from './load-hoist.ts';
import { resolveRefChains } from './load-ref-chains.ts';
import { dropRefsToNonSchemas, hoistPathParameterRefs } from './load-hoist-params.ts';
import { rewriteExternalMappings } from './load-mapping.ts';
import { repointDanglingRefs, restoreBesides } from './load-dangling.ts';
import { mayHavePropertiesRef, repairPropertiesRefs, type LoadRepair } from './load-repair.ts';
import { misplacedRef } from './load-off-spec.ts';
import { Origins } from './load-origins.ts';
import { validateRepairing } from './load-validate.ts';
import { validateSchema } from './load-schema.ts';
import { mergeKeyRepairs } from './load-lenient-reads.ts';
import { SpecFiles } from './load-refs.ts';
import {
  parseSpecText,
  readSpecText,
  SpecError,
  type LoadedSpec,
  type OpenApiDocument,
  type SpecPlace,
  type SpecProblem,
} from './load-text.ts';

// Importers take these from here; they live in load-text.ts and model/pointer.ts.
export { parseSpecText, readSpecText, SpecError, splitPointer };
export type { LoadedSpec, OpenApiDocument, SpecPlace, SpecProblem };

interface AjvLikeError {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/**
 * Whether the text has a `$ref` deeper than a component (`#/paths/~1a/post/requestBody/...`,
 * `#/components/schemas/A/properties/b`): openapi-typescript turns one into an indexed access
 * type that does not compile, so it is hoisted (load-hoist.ts). A scan of the text, so the
 * usual description (components only) costs no walk of its tree.
 */
function hasDeepRef(text: string): boolean {
  for (const m of text.matchAll(/\$ref["']?\s*:\s*["']?#(\/[^"'\s,}]*)/g)) {
    if (!/^\/components\/[^/]+\/[^/]+$/.test(m[1] as string)) return true;
  }
  return false;
}

/**
 * Loads, validates and bundles a description. Throws SpecError; never returns a bad document.
 * `read`: the text already read by readSpecText (a URL is then not fetched twice).
 */
export async function loadSpec(
  specPath: string,
  read?: Awaited<ReturnType<typeof readSpecText>>,
): Promise<LoadedSpec> {
  const { file, shown, text, showFile } = read ?? (await readSpecText(specPath));
  const parsed = parseSpecText(shown, text);
  let raw = parsed.raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SpecError(shown, [
      { code: 'spec-invalid', message: 'the document is not an object', line: 1, column: 1 },
    ]);
  }
  let locate = parsed.locate;
  const repairs: LoadRepair[] = [];
  let converted = false;
  if ((raw as OpenApiDocument)['openapi'] === undefined && 'swagger' in raw) {
    // Swagger 2.0: converted into 3.0 (the converter loads only here); lines still name this file.
    const { convertSwagger2 } = await import('./load-swagger2.ts');
    const result = await convertSwagger2(shown, file, raw as OpenApiDocument, text, locate);
    ({ document: raw, locate } = result);
    repairs.push(...result.repairs);
    converted = true;
  }
  const version = (raw as OpenApiDocument)['openapi'];
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    const pos = locate('/openapi');
    throw new SpecError(shown, [
      {
        code: 'spec-invalid',
        message: `unsupported or missing "openapi" version ${JSON.stringify(version ?? null)}: dataapi reads OpenAPI 3.0.x and 3.1.x`,
        pointer: '/openapi',
        line: pos?.line ?? 1,
        column: pos?.column ?? 1,
      },
    ]);
  }
  const files = new SpecFiles({ abs: file, shown, raw, locate }, showFile);
  // Our own pass first: it names the file, pointer and line of each `$ref` that points nowhere.
  const refProblems = files.checkRefs();
  if (refProblems.length > 0) throw new SpecError(shown, refProblems, 'spec-ref');
  // Bundle first (every `$ref` internal then), then validate the bundle.
  let document: OpenApiDocument;
  const origins = new Origins();
  // A pointer of the bundled document -> the file, pointer and line the author wrote.
  const where = (pointer: string) => files.trace(origins.source(pointer));
  try {
    const repairing = files.paths.length > 1 || converted || mayHavePropertiesRef(text);
    if (files.paths.length === 1 && !converted && !hasDeepRef(text) && !repairing) {
      // One file, internal `$ref`s only (checkRefs read every file a `$ref` reaches): the bundle
      // would be the document itself, so the bundler's crawl (and a copy) is skipped.
      document = raw as OpenApiDocument;
    } else if (files.paths.length === 1) {
      // A `$ref` the author pointed into a path or a schema's inside: hoisted as in a bundle.
      document = structuredClone(raw) as OpenApiDocument;
      resolveRefChains(document);
      repairs.push(...dropRefsToNonSchemas(document));
      hoistPathParameterRefs(document, origins.moved);
      hoistDeepSchemaRefs(document, (pointer) => files.refNameAt(pointer), origins.moved);
    } else {
      // The bundler (and its resolver) loads only for a description split over files.
      const SwaggerParser = (await import('@apidevtools/swagger-parser')).default;
      // Each file as parsed here (a local path: no other resolver reaches the YAML parser).
      const parse = {
        order: 1,
        canParse: (f: { url: string }) =>
          !/^https?:/i.test(f.url) && /\.(ya?ml|json)$/i.test(f.url),
        parse: readParsed(files),
      };
      const options = { parse: { yaml: parse } } as never;
      const bundle = async (d: unknown) =>
        (await SwaggerParser.bundle(file, d as never, options)) as unknown as OpenApiDocument;
      document = await bundle(structuredClone(raw));
      // What the bundler left pointing nowhere, brought in by another round (a few at most).
      // A round the bundler refuses is undone: the `$ref`s stay as the first round left them.
      const besides = new Map<string, Obj>();
      for (let round = 0; round < 3; round++) {
        const taken = new Map<string, Obj>();
        const undo = repointDanglingRefs(document, files, taken);
        if (!undo) break;
        try {
          document = await bundle(document);
        } catch {
          undo();
          break;
        }
        for (const [pointer, kept] of taken) besides.set(pointer, kept);
      }
      restoreBesides(document, besides);
      rewriteExternalMappings(document, files);
      resolveRefChains(document);
      repairs.push(...dropRefsToNonSchemas(document));
      hoistPathParameterRefs(document, origins.moved);
      hoistDeepSchemaRefs(document, (pointer) => files.refNameAt(pointer), origins.moved);
    }
    if (repairing) repairs.push(...repairPropertiesRefs(document));
    // The document against the OpenAPI schema of its version, as it is: each object is checked
    // where it is written (swagger-parser's validate() would dereference a copy first and check
    // every shared schema again at each use, several times the work on a large description).
    const checked = validateRepairing(
      (d) => validateSchema(withoutValidatorFalsePositives(d as OpenApiDocument)),
      document,
      () => (document === raw ? (structuredClone(raw) as OpenApiDocument) : document),
      (target) => {
        // The object a misplaced `$ref` names was itself written as one (the bundler inlined
        // the first of several): warned about at that place too.
        if (files.isRefAt(origins.source(target))) repairs.push(misplacedRef(target));
      },
    );
    document = checked.document as OpenApiDocument;
    repairs.push(...checked.repairs);
  } catch (err) {
    throw toSpecError(shown, where, err);
  }
  // Read though the format has none: said where the author wrote it (the root's merge keys too).
  repairs.push(...mergeKeyRepairs(shown, text, true), ...files.lenient);
  const spec: LoadedSpec = {
    file: shown,
    document,
    locate,
    inputs: files.paths,
    ...(repairs.length > 0 ? { repairs: unique(repairs) } : {}),
    ...(files.paths.length > 1 || origins.size > 0 ? { trace: where } : {}),
  };
  // The document is the root file's JSON as parsed (no copy, no bundling, no repair).
  if (document === raw && parsed.jsonText !== undefined) spec.jsonText = parsed.jsonText;
  return spec;
}

/**
 * The document for swagger-parser's schema validator without what its bundled OpenAPI 3.1 schema
 * wrongly rejects: a server variable's `description` (the schema misspells it `descriptions`),
 * valid in every 3.x version, and a path item that is a `$ref` (its target is checked where it
 * is written, e.g. under components/pathItems). A copy only when there is one to take out.
 */
function withoutValidatorFalsePositives(document: OpenApiDocument): OpenApiDocument {
  const paths = isObject(document['paths']) ? document['paths'] : {};
  const refItems = Object.keys(paths).filter((k) => {
    const item = paths[k];
    return isObject(item) && typeof item['$ref'] === 'string';
  });
  if (
    refItems.length === 0 &&
    !serverHolders(document).some((holder) => describedVariables(holder).length > 0)
  )
    return document;
  const copy = structuredClone(document);
  for (const holder of serverHolders(copy))
    for (const v of describedVariables(holder)) delete v['description'];
  const copiedPaths = copy['paths'] as Record<string, unknown>;
  for (const k of refItems) {
    const { $ref: _ref, ...rest } = copiedPaths[k] as Record<string, unknown>;
    copiedPaths[k] = rest;
  }
  return copy;
}

/** The root, the path items and the operations: the objects that may have `servers`. */
function serverHolders(document: OpenApiDocument): unknown[] {
  const items = Object.values(isObject(document['paths']) ? document['paths'] : {});
  return [document, ...items, ...items.flatMap((i) => (isObject(i) ? Object.values(i) : []))];
}

function describedVariables(holder: unknown): Record<string, unknown>[] {
  if (!isObject(holder) || !Array.isArray(holder['servers'])) return [];
  return holder['servers'].flatMap((server: unknown) =>
    isObject(server) && isObject(server['variables'])
      ? Object.values(server['variables']).filter(
          (v): v is Record<string, unknown> => isObject(v) && typeof v['description'] === 'string',
        )
      : [],
  );
}

/** The bundler's YAML parser: the file as SpecFiles parsed it (its URL, percent-encoded, or path). */
function readParsed(files: SpecFiles) {
  return (f: { url: string }) =>
    files.parsed(f.url.startsWith('file:') ? fileURLToPath(f.url) : decodeURIComponent(f.url));
}

/** Each repair once (one place may be named by several misplaced `$ref`s). */
function unique(repairs: LoadRepair[]): LoadRepair[] {
  const seen = new Set<string>();
  const key = (r: LoadRepair) => `${r.code} ${r.file ?? ''} ${r.pointer}`;
  return repairs.filter((r) => !seen.has(key(r)) && !!seen.add(key(r)));
}

function toSpecError(file: string, where: (pointer: string) => SpecPlace, err: unknown): SpecError {
  const e = err as { message?: string; details?: AjvLikeError[]; path?: string[]; source?: string };
  if (Array.isArray(e.details) && e.details.length > 0) {
    // The deepest pointers name the real culprit; the oneOf/else noise above them is dropped.
    const details = [...e.details].sort(
      (a, b) => (b.instancePath ?? '').length - (a.instancePath ?? '').length,
    );
    const deepest = details[0]?.instancePath ?? '';
    const seen = new Set<string>();
    const problems: SpecProblem[] = [];
    for (const d of details) {
      const pointer = d.instancePath ?? '';
      if (!pointer.startsWith(deepest.split('/').slice(0, -1).join('/'))) continue;
      if (isEcho(d, details)) continue;
      const message = describeAjvError(d);
      const key = pointer + message;
      if (seen.has(key) || problems.length >= 5) continue;
      seen.add(key);
      // Pointers are into the dereferenced tree: trace them back to the file and line written.
      problems.push({ ...where(pointer), code: 'spec-invalid', message });
    }
    return new SpecError(file, problems);
  }
  // Semantic errors (duplicate operationIds, missing path parameters) and anything else.
  const message = (e.message ?? String(err)).split('\n')[0] ?? 'invalid description';
  const pointerMatch = /#(\/[^\s"']*)/.exec(e.message ?? '');
  const pointer = e.path ? joinPointer(...e.path) || '/' : pointerMatch?.[1];
  return new SpecError(file, [
    { ...(pointer !== undefined ? where(pointer) : {}), code: 'spec-invalid', message },
  ]);
}

/** Keywords whose failure only repeats a failure inside them ("must match "else" schema"). */
const COMBINATORS = new Set(['if', 'then', 'else', 'oneOf', 'anyOf', 'allOf', 'not']);

/**
 * An error that echoes a deeper one: a combinator's, or unevaluated properties at a pointer
 * above a real problem (the branch that would have evaluated them failed). Kept when nothing
 * else would be said.
 */
function isEcho(d: AjvLikeError, all: AjvLikeError[]): boolean {
  const pointer = d.instancePath ?? '';
  const deeper = all.some(
    (o) =>
      o !== d &&
      !COMBINATORS.has(o.keyword ?? '') &&
      o.keyword !== 'unevaluatedProperties' &&
      (o.instancePath ?? '').startsWith(pointer),
  );
  if (!deeper) return false;
  return COMBINATORS.has(d.keyword ?? '') || d.keyword === 'unevaluatedProperties';
}

function describeAjvError(d: AjvLikeError): string {
  if (d.keyword === 'enum' && Array.isArray(d.params?.['allowedValues'])) {
    return `${d.message}: ${(d.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (d.keyword === 'additionalProperties' && d.params?.['additionalProperty'] !== undefined) {
    return `unexpected property ${JSON.stringify(d.params['additionalProperty'])}`;
  }
  return d.message ?? 'invalid';
}
