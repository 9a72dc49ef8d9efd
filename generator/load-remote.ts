/**
 * A description given by URL (`--spec https://...`): fetched once per run, written under
 * node_modules/.cache/dataapi/remote/ so that the loader reads it as it reads a file, and named by
 * its URL in every message. A description split over several files is fetched whole: every file a
 * relative `$ref` names (on the same origin) is fetched too and written at the same relative
 * place, so the loader follows the references on disk as it does for local files.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const isUrl = (spec: string) => /^https?:\/\//i.test(spec);

/** The URL without credentials or query (a token in it must not reach a message). */
export function shownUrl(spec: string): string {
  try {
    const url = new URL(spec);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return spec;
  }
}

export class RemoteSpecError extends Error {}

/** At most this many files of one description (a reference loop of generated names, say). */
const MAX_FILES = 1000;

async function fetchText(url: string, signal: AbortSignal, what: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/yaml, application/json;q=0.9, */*;q=0.5' },
      redirect: 'follow',
      signal,
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new RemoteSpecError(
      `cannot fetch ${what}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }
  if (!response.ok) throw new RemoteSpecError(`cannot fetch ${what}: HTTP ${response.status}`);
  return response.text();
}

/** The file part of every relative `$ref` in a parsed document (`./paths/pets.yaml`). */
function relativeRefs(parse: typeof import('yaml').parse, text: string): string[] {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: -1 });
  } catch {
    return []; // the loader reports the syntax error, with its line
  }
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null)
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const filePart = v.split('#')[0] ?? '';
          if (filePart !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(filePart)) out.add(filePart);
        } else walk(v);
      }
  };
  walk(doc);
  return [...out];
}

export interface FetchedSpec {
  /** The local copy of the root file. */
  file: string;
  text: string;
  /** How to name a local copy in a message: by its URL (no query). */
  showFile(abs: string): string;
}

/** The text at the URL, and the local file it was written to (its referenced files beside it). */
export async function fetchSpec(spec: string): Promise<FetchedSpec> {
  const signal = AbortSignal.timeout(60_000);
  // Loaded here, not with the module: `mock --spec` imports isUrl and needs no YAML reader when
  // it reads a kept model.
  const { parse } = await import('yaml');
  const root = new URL(spec);
  const key = createHash('sha256').update(spec).digest('hex').slice(0, 12);
  const dir = path.join(process.cwd(), 'node_modules', '.cache', 'dataapi', 'remote', key);
  // Each file at its URL's path under dir: relative references between them hold on disk.
  const local = (url: URL) => {
    const name = url.pathname.endsWith('/') ? `${url.pathname}openapi` : url.pathname;
    return path.join(
      dir,
      ...decodeURIComponent(name)
        .split('/')
        .filter((s) => s && s !== '..'),
    );
  };
  const text = await fetchText(spec, signal, 'the description');
  const file = local(root);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  const seen = new Set([root.origin + root.pathname]);
  const queue: [URL, string][] = [[root, text]];
  for (let item = queue.shift(); item; item = queue.shift()) {
    const [from, body] = item;
    for (const ref of relativeRefs(parse, body)) {
      const url = new URL(ref, from);
      url.search = root.search; // the same access token, if the description needs one
      const id = url.origin + url.pathname;
      if (url.origin !== root.origin || seen.has(id)) continue;
      if (seen.size >= MAX_FILES)
        throw new RemoteSpecError(`the description refers to more than ${MAX_FILES} files`);
      seen.add(id);
      const shown = `${url.pathname} (for $ref ${JSON.stringify(ref)})`;
      let refText: string;
      try {
        refText = await fetchText(url.href, signal, shown);
      } catch (err) {
        // A missing file is the loader's to report, at the $ref that names it.
        if (err instanceof RemoteSpecError && /HTTP 404/.test(err.message)) continue;
        throw err;
      }
      const target = local(url);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, refText);
      queue.push([url, refText]);
    }
  }
  const showFile = (abs: string) => {
    const rel = path.relative(dir, abs);
    return rel.startsWith('..') ? abs : `${root.origin}/${rel.split(path.sep).join('/')}`;
  };
  return { file, text, showFile };
}
