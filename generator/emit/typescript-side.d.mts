/** generated/types.ts's text for a bundled OpenAPI document (openapi-typescript). */
export function renderTypes(document: unknown): Promise<string>;
/** The first parse error of an emitted TypeScript file; undefined when it parses. */
export function syntaxError(file: { path: string; content: string }): string | undefined;
