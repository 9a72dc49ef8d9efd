/**
 * What a path value becomes in its URL, in one place for the fixed suite (requests.ts,
 * negatives.ts) and the fuzzer: a value that writes no segment, one holding the text its own
 * segment shares with it, and one another path template may take. Each of them sends a request
 * other than the one meant (another route, or other values of this one), so no check can rest on it.
 */
import { atLocation, type Operation, type Parameter, type ServiceModel } from 'dataapi/model';

/**
 * A path value's text in the segment (simple style: list items and object pairs joined by
 * commas), so `[""]` reads as the empty segment it becomes (corpus tfl.gov.uk: `/Road//Status`).
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(valueText).join(',');
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .map(([k, v]) => `${k},${valueText(v)}`)
      .join(',');
  return String(value);
}

/**
 * Whether a path value writes no text into its segment (`""`, `[]`, `[""]`, `{}`: Microsoft
 * Graph's `anyOf: [enum, {type: object}]` inside `(includedUserTypes='{includedUserTypes}')`
 * drew {}, an empty text the route's parameter cannot match).
 */
export function emptySegment(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(emptySegment);
  if (typeof v === 'object' && v !== null) return Object.keys(v).length === 0;
  return v === '' || v === null || v === undefined;
}

/** Why a path value is no segment of its own once URL parsing is done (undefined: it is one). */
export function segmentTrouble(value: unknown): string | undefined {
  const text = valueText(value);
  // `.` and `..` are resolved away by URL parsing; an empty segment changes the route.
  return text === '' || text === '.' || text === '..'
    ? 'a path segment that URL parsing would change'
    : undefined;
}

/** The literal text of the path segment that holds `{name}` (empty: the parameter is the segment). */
export function segmentLiteral(path: string, name: string): string {
  const segment = path.split('/').find((x) => x.includes(`{${name}}`)) ?? '';
  return segment.replace(/\{[^}]*\}/g, '');
}

/**
 * Whether a path value holds text its segment shares with it (`{id}.{format}`, id=1.5): read on
 * the wire as other values (id=1, format=5.json), not the one meant (corpus hhs.gov).
 */
export function holdsSegmentText(path: string, name: string, value: unknown): boolean {
  const text = valueText(value);
  return [...segmentLiteral(path, name)].some((c) => text.includes(c));
}

const templates = new WeakMap<ServiceModel, string[][]>();

/**
 * Whether a value of path parameter `name` may make the URL another template's
 * (`/media/{id}.{extension}` takes `/media/1.5`, meant as a bad `{id}` of `/media/{id}`: corpus
 * callfire.com; `/media/latest` takes `latest`): a template of as many segments, the others
 * alike, whose segment there is that value or writes a separator the value holds.
 */
export function takenElsewhere(
  model: ServiceModel,
  path: string,
  name: string,
  value: unknown,
): boolean {
  const own = path.split('/');
  const at = own.findIndex((s) => s.includes(`{${name}}`));
  if (at < 0) return false;
  let all = templates.get(model);
  if (!all) {
    const shapes = new Set(model.operations.map((o) => o.path.replace(/\{[^}]*\}/g, '{}')));
    all = [...shapes].map((t) => t.split('/'));
    templates.set(model, all);
  }
  const shape = own.map((s) => s.replace(/\{[^}]*\}/g, '{}'));
  const text = valueText(value);
  return all.some((theirs) => {
    if (theirs.length !== own.length || theirs.join('/') === shape.join('/')) return false;
    const alike = theirs.every(
      (s, i) => i === at || s === shape[i] || s.includes('{') || shape[i]!.includes('{'),
    );
    if (!alike) return false;
    const segment = theirs[at]!;
    if (!segment.includes('{')) return segment === encodeURIComponent(text);
    return [...segment.replace(/\{\}/g, '')].some(
      (c) => !/[A-Za-z0-9]/.test(c) && text.includes(c),
    );
  });
}

/** The reason a fuzz mutation taken elsewhere is discarded (counted in FuzzStats.discarded). */
export const TAKEN_ELSEWHERE = 'a URL another path template may take';

/**
 * Whether a value of a parameter would be read on the wire as something else: a path value as
 * other values or as another template's URL. No value of another location is.
 */
export function misreadOnWire(
  model: ServiceModel,
  op: Operation,
  p: Parameter,
  value: unknown,
): boolean {
  const no = () => false;
  return atLocation(p, {
    path: (pp) =>
      holdsSegmentText(op.path, pp.name, value) || takenElsewhere(model, op.path, pp.name, value),
    query: no,
    header: no,
    cookie: no,
  });
}
