/**
 * Media types and media ranges as a content map's keys hold them (OpenAPI: "a media type or media
 * type range", RFC 9110 §8.3.1 and §12.5.1): whether a key is one, whether an answer's
 * Content-Type falls in it, and the concrete type to send for a range (a Content-Type is never a
 * range: `image/*` on the wire is no media type).
 */

const TOKEN = '[a-z0-9!#$&^_.+-]+';
const MEDIA_KEY = new RegExp(`^(?:${TOKEN}|\\*)/(?:[a-z0-9!#$&^_.+*-]+)\\s*(?:;.*)?$`, 'i');

/** Whether a content map's key is a media type or range (`{the MIME type of the file}` is not). */
export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key.trim());
}

/** The type/subtype of a Content-Type or key, lower-cased, without parameters. */
const essence = (v: string | undefined): string => (v ?? '').split(';')[0]!.trim().toLowerCase();

/** Whether `actual` (a Content-Type) is `declared`, or falls in it when it is a range. */
export function mediaMatches(declared: string, actual: string): boolean {
  const d = essence(declared);
  const a = essence(actual);
  if (d === a || d === '*/*') return true;
  if (!d.includes('*')) return false;
  // `*` stands for any run of characters inside the type or the subtype (`application/*+json`).
  const glob = d
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${glob}$`).test(a);
}

/** A type of each top-level type, to answer a range with (RFC 6838 registered names). */
const OF_TYPE: Readonly<Record<string, string>> = {
  application: 'application/octet-stream',
  audio: 'audio/mpeg',
  font: 'font/woff2',
  image: 'image/png',
  model: 'model/gltf-binary',
  text: 'text/plain',
  video: 'video/mp4',
};

/** The media type an answer declared as `declared` is sent with: itself, or one in its range. */
export function concreteMedia(declared: string): string {
  const d = essence(declared);
  if (!d.includes('*')) return declared;
  if (d === '*/*') return 'application/octet-stream';
  const [type, subtype] = d.split('/') as [string, string];
  if (subtype === '*') return OF_TYPE[type] ?? `${type}/octet-stream`;
  return `${type}/${subtype.replaceAll('*', 'example')}`;
}
