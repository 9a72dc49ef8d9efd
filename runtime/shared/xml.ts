/**
 * XML bodies as OpenAPI describes them: a JSON value written as XML by its schema's `xml` hints
 * (name, attribute, wrapped, namespace and prefix), for a mock whose operation declares only an
 * XML media type. The contract suite reads answers back by the same names (contract-tests/xml.ts).
 */
import { deref, type SchemaRoot } from 'dataapi/model';
import type { JsonSchema } from 'dataapi/model';

export { isXmlMedia } from 'dataapi/model';

export interface XmlHints {
  name?: string;
  namespace?: string;
  prefix?: string;
  attribute?: boolean;
  wrapped?: boolean;
}

type Obj = Record<string, unknown>;

/** The `xml` object of a schema, of its `$ref` target when it has none of its own. */
export function xmlHints(model: SchemaRoot, schema: JsonSchema | undefined, depth = 0): XmlHints {
  const own = typeof schema === 'object' ? (schema as Obj)['xml'] : undefined;
  if (typeof own === 'object' && own !== null) return own as XmlHints;
  const target = deref(model, schema);
  const xml = typeof target === 'object' ? (target as Obj)['xml'] : undefined;
  if (typeof xml === 'object' && xml !== null) return xml as XmlHints;
  // Through `allOf` (AWS: `allOf: [{ $ref }, { description }]`): the first part that has hints.
  const parts = typeof target === 'object' ? (target as Obj)['allOf'] : undefined;
  if (Array.isArray(parts) && depth < 8)
    for (const part of parts) {
      const hints = xmlHints(model, part as JsonSchema, depth + 1);
      if (Object.keys(hints).length > 0) return hints;
    }
  return {};
}

/** The name a `$ref` gives its schema (the component's), when the schema is one. */
export function refName(schema: JsonSchema | undefined): string | undefined {
  const ref = typeof schema === 'object' ? schema.$ref : undefined;
  if (typeof ref !== 'string') return undefined;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  return last ? decodeURIComponent(last.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
}

/** The schema's properties (own, `$ref` target's, `allOf` members'), first declaration wins. */
export function xmlProperties(
  model: SchemaRoot,
  schema: JsonSchema | undefined,
): [string, JsonSchema][] {
  const out = new Map<string, JsonSchema>();
  const visit = (s: JsonSchema | undefined, depth: number) => {
    const d = deref(model, s);
    if (typeof d !== 'object' || depth > 8) return;
    const props = d.properties;
    if (typeof props === 'object' && props !== null)
      for (const [k, v] of Object.entries(props)) if (!out.has(k)) out.set(k, v as JsonSchema);
    if (Array.isArray(d.allOf)) for (const part of d.allOf) visit(part as JsonSchema, depth + 1);
  };
  visit(schema, 0);
  return [...out];
}

/**
 * The items schema of an array schema (after `$ref`, and through `allOf`: AWS writes every
 * property as `allOf: [{ $ref }, { description }]`), undefined when it is none.
 */
export function itemsOf(
  model: SchemaRoot,
  schema: JsonSchema | undefined,
  depth = 0,
): JsonSchema | undefined {
  const d = deref(model, schema);
  if (typeof d !== 'object' || depth > 8) return undefined;
  const isArray = d.type === 'array' || (Array.isArray(d.type) && d.type.includes('array'));
  if (isArray) return (d.items as JsonSchema | undefined) ?? {};
  if (d.type !== undefined || !Array.isArray(d.allOf)) return undefined;
  for (const part of d.allOf) {
    const items = itemsOf(model, part as JsonSchema, depth + 1);
    if (items !== undefined) return items;
  }
  return undefined;
}

/** A valid XML name from a property name (a name XML refuses is written with `_`). */
export function xmlName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

// A reader turns a raw carriage return into a line feed (and, in an attribute, a tab or a line
// feed into a space): written as character references they are read back as they were.
const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttr = (s: string) =>
  escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The qualified name and namespace declaration of an element. */
function qualified(name: string, hints: XmlHints): { tag: string; ns: string } {
  const tag = hints.prefix ? `${hints.prefix}:${name}` : name;
  if (!hints.namespace) return { tag, ns: '' };
  const attr = hints.prefix ? `xmlns:${hints.prefix}` : 'xmlns';
  return { tag, ns: ` ${attr}="${escapeAttr(hints.namespace)}"` };
}

/**
 * The XML document of a value, by its schema: the root element is named by the schema's
 * `xml.name`, else its component's name, else `root`.
 */
export function toXml(model: SchemaRoot, schema: JsonSchema | undefined, value: unknown): string {
  const hints = xmlHints(model, schema);
  const name = hints.name ?? refName(schema) ?? 'root';
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(model, schema, value, xmlName(name), hints, 0)}`;
}

function element(
  model: SchemaRoot,
  schema: JsonSchema | undefined,
  value: unknown,
  name: string,
  hints: XmlHints,
  depth: number,
): string {
  const { tag, ns } = qualified(name, hints);
  if (depth > 32) return `<${tag}${ns}/>`;
  const items = itemsOf(model, schema);
  if (Array.isArray(value)) {
    // A root array (or one inside an array): its items inside this element.
    const itemHints = xmlHints(model, items);
    const itemName = xmlName(itemHints.name ?? refName(items) ?? 'item');
    const inner = value.map((v) => element(model, items, v, itemName, itemHints, depth + 1));
    return `<${tag}${ns}>${inner.join('')}</${tag}>`;
  }
  if (typeof value !== 'object' || value === null) {
    const text = escapeText(scalarText(value));
    return text === '' ? `<${tag}${ns}/>` : `<${tag}${ns}>${text}</${tag}>`;
  }
  const declared = new Map(xmlProperties(model, schema));
  let attrs = '';
  let children = '';
  for (const [key, v] of Object.entries(value as Obj)) {
    if (v === undefined) continue;
    const propSchema = declared.get(key);
    const h = xmlHints(model, propSchema);
    const propName = xmlName(h.name ?? key);
    const propItems = itemsOf(model, propSchema);
    if (h.attribute && (typeof v !== 'object' || v === null)) {
      attrs += ` ${qualified(propName, h).tag}="${escapeAttr(scalarText(v))}"`;
      continue;
    }
    if (Array.isArray(v) && propItems !== undefined) {
      const itemHints = xmlHints(model, propItems);
      // Unwrapped (the default): each item is an element named by the items' xml.name, else
      // the property's; wrapped: the items inside one element named by the property.
      const itemName = xmlName(itemHints.name ?? propName);
      const inner = v
        .map((x) => element(model, propItems, x, itemName, itemHints, depth + 1))
        .join('');
      if (h.wrapped) {
        const w = qualified(propName, h);
        children += `<${w.tag}${w.ns}>${inner}</${w.tag}>`;
      } else children += inner;
      continue;
    }
    children += element(model, propSchema, v, propName, h, depth + 1);
  }
  return children === '' ? `<${tag}${ns}${attrs}/>` : `<${tag}${ns}${attrs}>${children}</${tag}>`;
}
