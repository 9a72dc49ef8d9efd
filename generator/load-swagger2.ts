/**
 * Swagger 2.0 input: converted to OpenAPI 3.0 by swagger2openapi (loaded only for 2.0 input), then
 * read like any 3.0 description. Findings and errors carry pointers of the converted document;
 * `locate` maps each back to the place it was written in the 2.0 file, so lines name the file the
 * user has.
 */
import { createRequire } from 'node:module';
import { isObject, type Obj } from '../model/object.ts';
import { escapeToken, joinPointer, splitPointer } from '../model/pointer.ts';
import { SpecError, type OpenApiDocument } from './load-text.ts';
import type { LoadRepair } from './load-repair.ts';

type Locate = (pointer: string) => { line: number; column: number } | undefined;

export interface Converted {
  document: OpenApiDocument;
  locate: Locate;
  repairs: LoadRepair[];
}

interface S2OOptions {
  patch: boolean;
  warnOnly: boolean;
  text: string;
  source?: string;
  resolve?: boolean;
  openapi?: OpenApiDocument;
  patches?: number;
}

/** Converts a Swagger 2.0 document; a conversion failure is a SpecError at the `swagger` line. */
export async function convertSwagger2(
  shown: string,
  file: string,
  raw: Obj,
  text: string,
  locate: Locate,
): Promise<Converted> {
  const at = locate('/swagger') ?? { line: 1, column: 1 };
  if (raw['swagger'] !== '2.0') {
    throw new SpecError(shown, [
      {
        code: 'spec-invalid',
        message: `unsupported Swagger version ${JSON.stringify(raw['swagger'])}: dataapi reads Swagger 2.0, OpenAPI 3.0.x and 3.1.x`,
        pointer: '/swagger',
        ...at,
      },
    ]);
  }
  // Required here, not imported at the top: only 2.0 input pays for loading the converter.
  const converter = createRequire(import.meta.url)('swagger2openapi') as {
    convertObj(doc: unknown, options: S2OOptions): Promise<S2OOptions>;
  };
  // `text` spares the converter a YAML dump of the whole document; external `$ref`s (a split
  // 2.0 description) are resolved by the converter, whose fragments are 2.0 too.
  const options: S2OOptions = { patch: true, warnOnly: true, text };
  if (/\$ref["']?\s*:\s*["']?[^#"'\s]/.test(text))
    Object.assign(options, { source: file, resolve: true });
  let document: OpenApiDocument;
  try {
    document = (await converter.convertObj(structuredClone(raw), options))
      .openapi as OpenApiDocument;
  } catch (err) {
    const reason = ((err as Error).message ?? String(err)).split('\n')[0];
    throw new SpecError(shown, [
      {
        code: 'spec-invalid',
        message: `this Swagger 2.0 description could not be converted to OpenAPI 3.0: ${reason}`,
        pointer: '/swagger',
        ...at,
      },
    ]);
  }
  const repairs: LoadRepair[] = [
    {
      code: 'converted-from-swagger2',
      pointer: '/swagger',
      message:
        'a Swagger 2.0 description, converted to OpenAPI 3.0 (swagger2openapi) before it is read; pointers name the converted document',
    },
    ...takeWarnings(document),
  ];
  return { document, locate: mappedLocate(raw, document, locate), repairs };
}

/** The converter's `x-s2o-warning`s (what it could not carry over), taken out as repairs. */
function takeWarnings(document: Obj): LoadRepair[] {
  const found: LoadRepair[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${pointer}/${i}`));
    if (!isObject(node)) return;
    const warning = node['x-s2o-warning'];
    if (warning !== undefined) {
      delete node['x-s2o-warning'];
      found.push({
        code: 'swagger2-conversion-loss',
        pointer: pointer || '/',
        message: `converting from Swagger 2.0: ${String(warning)}`,
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default') continue;
      visit(value, `${pointer}/${escapeToken(key)}`);
    }
  };
  visit(document, '');
  return found;
}

const get = (node: unknown, tokens: string[]): unknown =>
  tokens.reduce<unknown>(
    (n, t) => (Array.isArray(n) ? n[Number(t)] : isObject(n) ? n[t] : undefined),
    node,
  );

const COMPONENTS: Record<string, string> = {
  schemas: 'definitions',
  parameters: 'parameters',
  responses: 'responses',
  securitySchemes: 'securityDefinitions',
  requestBodies: 'parameters',
};

/**
 * The 2.0 pointer of a converted pointer: components back to definitions and friends, response
 * and body `content/<type>/schema` back to `schema`, parameters matched by name and place (their
 * indexes shift when the body ones leave). What has no counterpart falls back to its nearest
 * parent that exists in the 2.0 file.
 */
export function originalPointer(raw: Obj, converted: Obj, pointer: string): string[] {
  const t = splitPointer(pointer);
  if (t[0] === 'openapi') return ['swagger'];
  if (t[0] === 'servers') return ['host'];
  if (t[0] === 'components' && t[1] !== undefined && COMPONENTS[t[1]] !== undefined) {
    const rest = t.slice(2);
    if (t[1] === 'responses') return ['responses', ...fromContent(rest, 1)];
    if (t[1] === 'requestBodies') return ['parameters', rest[0] ?? '', ...fromBody(rest.slice(1))];
    return [COMPONENTS[t[1]] as string, ...rest];
  }
  if (t[0] !== 'paths' || t.length < 3) return t;
  const item = t.slice(0, 2);
  let i = 2;
  if (t[i] !== 'parameters') i++; // an operation
  const owner = t.slice(0, i);
  const rest = t.slice(i);
  if (rest[0] === 'responses' && rest.length > 2)
    return [...owner, 'responses', rest[1] as string, ...fromContent(rest.slice(2), 0)];
  if (rest[0] === 'parameters' && rest[1] !== undefined) {
    const param = get(converted, [...owner, 'parameters', rest[1]]);
    const list = get(raw, [...owner, 'parameters']);
    if (isObject(param) && Array.isArray(list)) {
      const j = list.findIndex(
        (p) => isObject(p) && p['name'] === param['name'] && p['in'] === param['in'],
      );
      if (j >= 0) {
        const tail = rest.slice(2);
        const hasSchema = isObject(list[j]) && (list[j] as Obj)['schema'] !== undefined;
        return [
          ...owner,
          'parameters',
          String(j),
          ...(tail[0] === 'schema' && !hasSchema ? tail.slice(1) : tail),
        ];
      }
    }
    return owner;
  }
  if (rest[0] === 'requestBody') {
    const list = [...((get(raw, [...owner, 'parameters']) as unknown[] | undefined) ?? [])];
    const j = list.findIndex((p) => isObject(p) && p['in'] === 'body');
    const props = rest[3] === 'schema' && rest[4] === 'properties' ? rest[5] : undefined;
    const f = list.findIndex(
      (p) => isObject(p) && p['in'] === 'formData' && (props === undefined || p['name'] === props),
    );
    if (j >= 0) return [...owner, 'parameters', String(j), ...fromBody(rest.slice(1))];
    if (f >= 0)
      return [...owner, 'parameters', String(f), ...(props !== undefined ? rest.slice(6) : [])];
    return owner;
  }
  return item.length === t.length ? item : t;
}

/** `content/<type>/schema/...` to `schema/...` (a response keeps `headers`, `description`). */
function fromContent(rest: string[], keep: number): string[] {
  const head = rest.slice(0, keep);
  const tail = rest.slice(keep);
  if (tail[0] !== 'content') return rest;
  if (tail[2] === 'schema') return [...head, 'schema', ...tail.slice(3)];
  if (tail[2] === 'example' || tail[2] === 'examples') return [...head, 'examples', tail[1] ?? ''];
  return head;
}

/** A request body's `content/<type>/schema/...` to the body parameter's `schema/...`. */
function fromBody(rest: string[]): string[] {
  return rest[0] === 'content' && rest[2] === 'schema' ? ['schema', ...rest.slice(3)] : [];
}

/** `locate` over the converted document's pointers, answering with lines of the 2.0 file. */
function mappedLocate(raw: Obj, converted: Obj, locate: Locate): Locate {
  return (pointer) => {
    if (pointer === '/swagger' || pointer.startsWith('/swagger/')) return locate(pointer);
    const tokens = originalPointer(raw, converted, pointer);
    for (let n = tokens.length; n >= 0; n--) {
      const prefix = tokens.slice(0, n);
      if (n > 0 && get(raw, prefix) === undefined) continue;
      const pos = locate(joinPointer(...prefix));
      if (pos !== undefined) return pos;
    }
    return undefined;
  };
}
