/**
 * XML bodies read back (answers by the contract suite, requests by the server): well-formedness (fast-xml-parser's validator, with the line of the
 * fault) and, where the schema's `xml` hints say how, the JSON value the body stands for, so the
 * schema check judges it as it judges JSON. Where no mapping is sure (`oneOf`, `anyOf`, a
 * free-form object) the value is not built and only well-formedness is checked.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { deref, type JsonSchema, type ServiceModel } from 'dataapi/model';
import { itemsOf, refName, xmlHints, xmlName, xmlProperties } from 'dataapi/runtime/shared';

/** Why a body is not well-formed XML (with its line), or undefined when it is. */
export function xmlFault(text: string): string | undefined {
  if (text.trim() === '') return 'an empty body';
  const result = XMLValidator.validate(text);
  if (result === true) return undefined;
  return `not well-formed XML: ${result.err.msg} (line ${result.err.line}, column ${result.err.col})`;
}

class Unmappable extends Error {}

type Node = unknown;
type Obj = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  textNodeName: '#text',
  // Text is read as written: a string of spaces is a value (trimmed, " " read back as "" and
  // failed its minLength: corpus amazonaws.com/cloudformation). Character references (`&#13;`)
  // are decoded.
  trimValues: false,
  htmlEntities: true,
});

/**
 * The value a well-formed XML body stands for under its schema, or a mismatch of the root element,
 * or undefined when the schema's shape cannot be mapped back with certainty.
 */
export function xmlValue(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  text: string,
): { value: unknown } | { rootMismatch: string } | undefined {
  const doc = parser.parse(text) as Obj;
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  const hints = xmlHints(model, schema);
  const named = hints.name ?? refName(schema);
  const root = named === undefined ? roots[0] : xmlName(named);
  if (root === undefined || !Object.hasOwn(doc, root))
    return { rootMismatch: `root element <${root}> expected, got <${roots.join('>, <')}>` };
  try {
    return { value: convert(model, schema, doc[root], 0) };
  } catch (err) {
    if (err instanceof Unmappable) return undefined;
    throw err;
  }
}

const list = (n: Node): Node[] => (n === undefined ? [] : Array.isArray(n) ? n : [n]);

function textOf(n: Node): string {
  if (typeof n === 'string') return n;
  if (typeof n === 'object' && n !== null && typeof (n as Obj)['#text'] === 'string')
    return (n as Obj)['#text'] as string;
  return '';
}

/** The schema's types, through `allOf` (AWS: `allOf: [{ $ref: BoxedInteger }, { description }]`). */
function typesOf(model: ServiceModel, s: Obj, depth = 0): string[] {
  const t = s['type'];
  const own = typeof t === 'string' ? [t] : Array.isArray(t) ? (t as string[]) : [];
  if (own.length > 0 || !Array.isArray(s['allOf']) || depth > 8) return own;
  return (s['allOf'] as JsonSchema[]).flatMap((branch) => {
    const b = deref(model, branch);
    return typeof b === 'object' ? typesOf(model, b as Obj, depth + 1) : [];
  });
}

function scalar(model: ServiceModel, s: Obj, text: string): unknown {
  const types = typesOf(model, s);
  if (text === '' && types.includes('null')) return null;
  // Whitespace around a number or a boolean is layout (XML Schema collapses it); around a string
  // it is part of the value.
  const bare = text.trim();
  if (
    (types.includes('integer') || types.includes('number')) &&
    /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(bare)
  )
    return Number(bare);
  if (types.includes('boolean') && (bare === 'true' || bare === 'false')) return bare === 'true';
  return text;
}

function convert(
  model: ServiceModel,
  schema: JsonSchema | undefined,
  node: Node,
  depth: number,
): unknown {
  if (depth > 32) throw new Unmappable();
  const s = deref(model, schema);
  if (s === undefined || s === true) return textOf(node);
  if (s === false || s.oneOf || s.anyOf || s.not || s.if) throw new Unmappable();
  const items = itemsOf(model, schema);
  if (items !== undefined) {
    // A root array: its items inside the element, named as the items say.
    const itemHints = xmlHints(model, items);
    const name = xmlName(itemHints.name ?? refName(items) ?? 'item');
    const inner = typeof node === 'object' && node !== null ? (node as Obj)[name] : undefined;
    return list(inner).map((n) => convert(model, items, n, depth + 1));
  }
  const props = xmlProperties(model, schema);
  const types = typesOf(model, s);
  if (props.length === 0) {
    if (types.includes('object') || (types.length === 0 && typeof node === 'object'))
      throw new Unmappable();
    return scalar(model, s, textOf(node));
  }
  const element = typeof node === 'object' && node !== null ? (node as Obj) : {};
  // Two properties written as elements of one name (two unwrapped lists whose items are both
  // `item`, AWS EC2's ArchitectureTypes and VirtualizationTypes): whose element is whose is lost.
  const claimed = new Set<string>();
  for (const [key, propSchema] of props) {
    const name = elementName(model, propSchema, key);
    if (name === undefined) continue;
    if (claimed.has(name)) throw new Unmappable();
    claimed.add(name);
  }
  const required = requiredOf(model, schema);
  const out: Obj = {};
  for (const [key, propSchema] of props) {
    const h = xmlHints(model, propSchema);
    const name = xmlName(h.name ?? key);
    const propItems = itemsOf(model, propSchema);
    if (h.attribute) {
      const v = element[`@_${name}`];
      const ps = deref(model, propSchema);
      if (typeof v === 'string') out[key] = typeof ps === 'object' ? scalar(model, ps, v) : v;
      continue;
    }
    if (propItems !== undefined) {
      const itemHints = xmlHints(model, propItems);
      const itemName = xmlName(itemHints.name ?? name);
      const holder = h.wrapped ? element[name] : element;
      if (h.wrapped && holder === undefined) continue;
      const found =
        typeof holder === 'object' && holder !== null ? (holder as Obj)[itemName] : undefined;
      // An unwrapped list with no items writes no element: a required one is read as empty,
      // the one reading a valid body can have (the writer writes [] so: corpus amazonaws.com/ec2).
      if (found === undefined && !h.wrapped) {
        if (required.has(key)) out[key] = [];
        continue;
      }
      out[key] = list(found).map((n) => convert(model, propItems, n, depth + 1));
      continue;
    }
    if (!Object.hasOwn(element, name)) continue;
    const child = element[name];
    // A repeated element where one value belongs: no sure mapping.
    if (Array.isArray(child)) throw new Unmappable();
    out[key] = convert(model, propSchema, child, depth + 1);
  }
  return out;
}

/** The element name a property is written as (an unwrapped list's: its items'); none for an attribute. */
function elementName(model: ServiceModel, propSchema: JsonSchema, key: string): string | undefined {
  const h = xmlHints(model, propSchema);
  if (h.attribute) return undefined;
  const name = xmlName(h.name ?? key);
  const items = itemsOf(model, propSchema);
  if (items === undefined || h.wrapped) return name;
  return xmlName(xmlHints(model, items).name ?? name);
}

/** The required property names of an object schema (its own, its `$ref` target's and `allOf` members'). */
function requiredOf(model: ServiceModel, schema: JsonSchema | undefined, depth = 0): Set<string> {
  const out = new Set<string>();
  const s = deref(model, schema);
  if (typeof s !== 'object' || depth > 8) return out;
  if (Array.isArray(s.required)) for (const n of s.required) out.add(String(n));
  if (Array.isArray(s.allOf))
    for (const part of s.allOf)
      for (const n of requiredOf(model, part as JsonSchema, depth + 1)) out.add(n);
  return out;
}
