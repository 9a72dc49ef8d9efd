/**
 * The model of a `--spec FILE` for `dataapi mock`, kept in node_modules/.cache/dataapi between
 * starts. Loading GitHub's description (parse, the OpenAPI schema compiled and checked, `$ref`s)
 * and normalising it was about half of the mock's start; a later start with the same description
 * and toolkit reads the model it made (one JSON parse). The key is the generator's stamp key
 * (generator/speed/stamp.ts): the description's files, and the toolkit's sources that make the
 * model, so a changed description or toolkit loads again. A URL is loaded every time. The models
 * of descriptions not used for a day go beyond the 32 used last (generator/speed/description-caches.ts).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { schemaRootValid, trustSchemaRoot } from 'dataapi/model/validate';
import { isUrl } from '../generator/load-remote.ts';
import { PROJECT_ROOT } from '../generator/root.ts';
import { markUsed, pruneUnused } from '../generator/speed/description-caches.ts';
import { stampKey, type StampContext } from '../generator/speed/stamp.ts';

interface ModelStamp {
  version: 1;
  key: string;
  /** The description's files, absolute (the root and every file its `$ref`s reached). */
  inputs: string[];
  /**
   * The model's schema root passed the JSON Schema meta-schema when it was kept: a later start
   * does not check it again (a quarter of a second of GitHub's first answer).
   */
  rootValid?: true;
}

const CONTEXT: StampContext = {
  projectRoot: PROJECT_ROOT,
  templatesDir: path.join(PROJECT_ROOT, 'templates'),
  specLabel: 'mock-model',
};

/** The cache files of a description (keyed by its absolute path), without their extension. */
export function specModelBase(spec: string, cwd = process.cwd()): string {
  const hash = createHash('sha256').update(path.resolve(cwd, spec)).digest('hex').slice(0, 16);
  return path.join(cwd, 'node_modules', '.cache', 'dataapi', `mock-model-${hash}`);
}

/** The model the last start made of this description, when nothing it was made of changed. */
async function cachedModel(base: string): Promise<ServiceModel | undefined> {
  try {
    const stamp = JSON.parse(await readFile(`${base}.stamp.json`, 'utf8')) as ModelStamp;
    if (stamp.version !== 1) return;
    // The model is read while the key is worked out (parsed only when the key holds).
    const text = readFile(`${base}.model.json`, 'utf8');
    text.catch(() => undefined);
    if ((await stampKey(stamp.inputs, CONTEXT)) !== stamp.key) return;
    const model = JSON.parse(await text) as ServiceModel;
    if (stamp.rootValid === true) trustSchemaRoot(model.schemaRoot);
    return model;
  } catch {
    return undefined;
  }
}

/** Writes the model, then its stamp (each file whole: written aside, then renamed). */
async function keep(base: string, model: ServiceModel, inputs: string[]): Promise<void> {
  const key = await stampKey(inputs, CONTEXT);
  if (key === undefined) return;
  const put = async (file: string, text: string) => {
    const aside = `${file}.${process.pid}.tmp`;
    await writeFile(aside, text);
    await rename(aside, file);
  };
  try {
    await mkdir(path.dirname(base), { recursive: true });
    await put(`${base}.model.json`, JSON.stringify(model));
    // Checked now, once: the mock of this process asks for it anyway (the check is kept per process).
    const stamp: ModelStamp = {
      version: 1,
      key,
      inputs,
      ...(schemaRootValid(model) ? { rootValid: true as const } : {}),
    };
    await put(`${base}.stamp.json`, JSON.stringify(stamp));
  } catch {
    // a cache: a read-only node_modules only costs the next start its shortcut
  }
}

/**
 * The normalised model of a description: the cached one when it is current, else loaded,
 * normalised and kept for the next start. Bad input throws the loader's SpecError as before.
 */
export async function specModel(spec: string, cwd = process.cwd()): Promise<ServiceModel> {
  const base = isUrl(spec) ? undefined : specModelBase(spec, cwd);
  const cached = base ? await cachedModel(base) : undefined;
  if (cached) {
    await markUsed(`${base}.stamp.json`);
    return cached;
  }
  const [{ loadSpec }, { normalise }] = await Promise.all([
    import('../generator/load.ts'),
    import('../generator/normalise/index.ts'),
  ]);
  const file = isUrl(spec) ? spec : path.resolve(cwd, spec);
  // Named in the loader's errors as the user gave it (relative to the working directory).
  const loaded = await loadSpec(isUrl(spec) ? spec : path.relative(process.cwd(), file) || file);
  const model = normalise(loaded);
  // Kept before the mock uses the model, so that the cache holds what normalise made.
  if (base) {
    await keep(base, model, loaded.inputs ?? [file]);
    await pruneUnused(path.dirname(base), 'mock-model-');
  }
  return model;
}
