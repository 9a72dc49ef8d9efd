/**
 * The values of large YAML descriptions kept between loads, keyed by their text: the YAML parser
 * reads the service's own description (160 kB) in 0.6 s of CPU, JSON.parse reads its value in a few
 * milliseconds. Kept in the process and in the toolkit's cache folder (speed/toolkit-cache.ts), so
 * the many processes of a CI job or a test run that load the same description parse it once. Only
 * values JSON represents exactly are kept (no anchors shared by aliases, no .inf or .nan).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { cachedFile, keepCached, readCached } from './speed/toolkit-cache.ts';

/** Smaller texts parse in a few milliseconds: not worth a file. */
export const KEEP_FROM_CHARS = 32 * 1024;
/** Descriptions kept on disk (each edit of one is a new key): the most recently written. */
const KEEP_AT_MOST = 24;

const YAML_VERSION = (createRequire(import.meta.url)('yaml/package.json') as { version: string })
  .version;
const inProcess = new Map<string, string>();

/** The cache file of a text's value. */
export const keptYamlFile = (text: string) =>
  cachedFile('yaml', [2, YAML_VERSION, createHash('sha256').update(text).digest('hex')], '.json');

/** The kept value of this text (a fresh copy), or undefined. */
export function keptYamlValue(text: string): unknown {
  const file = keptYamlFile(text);
  const json = inProcess.get(file) ?? readCached(file);
  if (json === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined; // not this toolkit's file after all: parsed from the text instead
  }
  remember(file, json);
  return value;
}

/** Keeps the value the YAML parser read from this text, when JSON holds it exactly. */
export function keepYamlValue(text: string, value: unknown): void {
  if (!jsonExact(value)) return;
  const file = keptYamlFile(text);
  const json = JSON.stringify(value);
  remember(file, json);
  keepCached(file, json, KEEP_AT_MOST);
}

function remember(file: string, json: string): void {
  inProcess.delete(file);
  inProcess.set(file, json);
  if (inProcess.size > 8) inProcess.delete(inProcess.keys().next().value!);
}

/**
 * Whether JSON.parse(JSON.stringify(value)) is the same value: plain objects, arrays, strings,
 * booleans, null and finite numbers, each object reached once (an alias shares one).
 */
function jsonExact(value: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node === 'string' || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node) || Object.is(node, -0)) return false;
      continue;
    }
    if (typeof node !== 'object' || seen.has(node)) return false;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (Object.getPrototypeOf(node) !== Object.prototype) return false;
    if (Object.hasOwn(node, '__proto__')) return false;
    for (const item of Object.values(node)) stack.push(item);
  }
  return true;
}
