/**
 * Query, path and body serialisers for one operation (plus the key transport it uses), following each parameter's own `style` and
 * `explode` from the model (openapi-fetch's built-in serialisers take one style for all
 * parameters; its per-value helpers do the encoding).
 */
import {
  serializeArrayParam,
  serializeObjectParam,
  serializePrimitiveParam,
  type PathSerializer,
} from 'openapi-fetch';
import type { SchemaRoot } from 'dataapi/model';
import type { KeyTransport, Operation, Parameter } from '../../model/types.ts';
import { encodeForm } from '../shared/form.ts';

type Style = 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited';

function styleOf(p: Parameter | undefined, fallback: Style): { style: Style; explode: boolean } {
  const style = (p?.style ?? fallback) as Style;
  return { style, explode: p?.explode ?? fallback === 'form' };
}

function serializeOne(
  name: string,
  value: unknown,
  p: Parameter | undefined,
  fallback: Style,
): string {
  const { style, explode } = styleOf(p, fallback);
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    return serializeArrayParam(name, value, { style, explode });
  }
  if (typeof value === 'object' && value !== null) {
    const objStyle = (p?.style === 'deepObject' ? 'deepObject' : style) as
      'simple' | 'label' | 'matrix' | 'form' | 'deepObject';
    // An object or list inside the object has no style of its own (OpenAPI defines one level):
    // JSON text, which dataapi's servers read back by the property's schema.
    const flat = Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        typeof v === 'object' && v !== null ? JSON.stringify(v) : v,
      ]),
    );
    return serializeObjectParam(name, flat, {
      style: objStyle,
      explode,
    });
  }
  const text = String(value);
  if (fallback === 'form') return serializePrimitiveParam(name, text);
  if (style === 'label') return `.${encodeURIComponent(text)}`;
  if (style === 'matrix') return `;${name}=${encodeURIComponent(text)}`;
  return encodeURIComponent(text);
}

export function querySerializerFor(op: Operation): (query: Record<string, unknown>) => string {
  const byName = new Map(op.parameters.query.map((p) => [p.name, p]));
  return (query) =>
    Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([name, v]) => serializeOne(name, v, byName.get(name), 'form'))
      .filter((s) => s !== '')
      .join('&');
}

export function pathSerializerFor(op: Operation): PathSerializer {
  const byName = new Map(op.parameters.path.map((p) => [p.name, p]));
  return (pathname, params) =>
    pathname.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined || value === null) return whole;
      return serializeOne(name, value, byName.get(name), 'simple');
    });
}

/** Cookie parameters as one Cookie header value (openapi-fetch does not send cookies). */
export function cookieHeader(cookies: Record<string, unknown> | undefined): string | undefined {
  const parts = Object.entries(cookies ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`);
  return parts.length ? parts.join('; ') : undefined;
}

export function isJsonLike(response: Response, op: Operation): boolean {
  const type = response.headers.get('content-type') ?? '';
  if (/json/i.test(type)) return true;
  if (type !== '') return false;
  return op.success?.kind === 'json' || op.success?.kind === undefined;
}

/**
 * An XML body goes as the string the caller gives: the XML writer (runtime/shared/xml.ts) stays
 * out of the client's bundle (`model` is for body writers that need the schemas).
 */
export function bodySerializerFor(op: Operation, model: SchemaRoot): (body: unknown) => unknown {
  void model;
  const kind = op.body?.kind ?? 'json';
  return (body) => {
    if (body instanceof FormData || body instanceof Blob || body instanceof Uint8Array) return body;
    if (kind === 'form' && typeof body === 'object' && body !== null)
      return encodeForm(body as Record<string, unknown>, op.body?.encoding);
    if (kind === 'text' || typeof body === 'string')
      return typeof body === 'string' ? body : String(body);
    return JSON.stringify(body);
  };
}
