/**
 * generated/types.ts's text for a bundled OpenAPI document (openapi-typescript). `owned`: the
 * caller gives the document away, and it may be changed; `source`: the JSON text it was parsed from.
 */
export function renderTypes(
  document: unknown,
  options?: { owned?: boolean; source?: string },
): Promise<string>;
/**
 * The first parse error of an emitted TypeScript file; undefined when it parses. `keep`: its
 * parse tree stays in `parsed` (path -> tree) for the tree's type-check.
 */
export function syntaxError(
  file: { path: string; content: string },
  keep?: boolean,
): string | undefined;
export const parsed: Map<string, import('typescript').SourceFile>;
/** Bare schema names in discriminator mappings made references (changes `document`). */
export function qualifyDiscriminatorMappings(document: unknown): void;
/** Shapes openapi-typescript cannot type as written, rewritten (changes `document`). */
export function typeableSchemas(document: unknown): void;
/** openapi-typescript's WithRequired helper, made to accept a nullable type. */
export function nullableWithRequired(text: string): string;
/**
 * The first type errors of generated types.ts when it has an indexed access deeper than a
 * component (the construct known not to compile); undefined otherwise.
 */
export function typeErrors(file: { path: string; content: string }): string | undefined;
/**
 * Every emitted file's first parse error, and without `keep` types.ts's own type errors (with
 * `keep`, the parse trees stay in `parsed` for the tree's type-check, which checks them).
 */
export function syntaxErrors(files: { path: string; content: string }[], keep: boolean): string[];
