/**
 * `dataapi generate`: load -> normalise -> emit. Writes the output tree atomically, or with
 * `check` compares it and reports drift. Nothing is written when anything fails.
 */
import path from 'node:path';
import { PROJECT_ROOT } from './root.ts';
import type { ServiceModel } from '../model/types.ts';
import { MANIFEST, type Manifest } from './emit/manifest.ts';
import type { RenderedFile } from './emit/render.ts';
import { freshStamp, writeStamp, type StampContext } from './emit/stamp.ts';
import type { TypesRenderer } from './emit/types-offthread.ts';
import {
  compareTree,
  readTree,
  writeTreeAtomically,
  type Drift,
  type WriteHooks,
} from './emit/write.ts';

export { PROJECT_ROOT };

/** Up to this size, formatting overlaps the worker (see fullRun). */
const OVERLAP_MAX_OPERATIONS = 500;

export interface GenerateOptions {
  spec: string;
  out: string;
  check?: boolean;
  /** Regenerate even when the inputs and output are as the last run left them. */
  force?: boolean;
  templatesDir?: string;
  /** Template kinds to render (folders of templates/); all when omitted. */
  kinds?: string[];
  hooks?: WriteHooks;
}

export interface GenerateResult {
  /** The model; absent when the run was skipped because nothing had changed (`upToDate`). */
  model?: ServiceModel;
  operations: number;
  previews: number;
  /** Inputs and output were exactly as the last run left them: nothing was loaded or written. */
  upToDate: boolean;
  files: RenderedFile[];
  /** Files whose content differs from what was in the output folder before. */
  written: string[];
  unchanged: number;
  formatted: number;
  drift?: Drift;
  ms: number;
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const specLabel =
    path.relative(process.cwd(), path.resolve(options.spec)).split(path.sep).join('/') ||
    options.spec;
  const templatesDir = options.templatesDir ?? path.join(PROJECT_ROOT, 'templates');
  const stampContext: StampContext = {
    projectRoot: PROJECT_ROOT,
    templatesDir,
    specLabel,
    ...(options.kinds ? { kinds: options.kinds } : {}),
  };
  // A write run whose inputs and output are as the last run left them has nothing to do. `--check`
  // always regenerates: it is what CI trusts.
  if (!options.check && !options.force) {
    const fresh = await freshStamp(options.out, stampContext);
    if (fresh) {
      const tree = await readTree(options.out);
      return {
        operations: fresh.operations,
        previews: fresh.previews,
        upToDate: true,
        files: [...tree].map(([p, content]) => ({ path: p, content })),
        written: [],
        unchanged: tree.size,
        formatted: 0,
        ms: performance.now() - started,
      };
    }
  }
  // openapi-typescript starts loading on the other core now; the rest loads here meanwhile. The
  // heavy parts load only when there is work (a shortcut run never pays for them).
  const types = (await import('./emit/types-offthread.ts')).startTypesRenderer();
  try {
    return await fullRun(options, specLabel, templatesDir, stampContext, types, started);
  } finally {
    types.close();
  }
}

async function fullRun(
  options: GenerateOptions,
  specLabel: string,
  templatesDir: string,
  stampContext: StampContext,
  typesRenderer: TypesRenderer,
  started: number,
): Promise<GenerateResult> {
  const [{ loadSpec }, { normalise }, engineModule, { renderAll }, prettier] = await Promise.all([
    import('./load.ts'),
    import('./normalise/index.ts'),
    import('./emit/engine.ts'),
    import('./emit/render.ts'),
    import('prettier'),
  ]);
  const { formatFiles } = await import('./emit/format.ts');
  const { printJson } = await import('./emit/json-print.ts');
  const spec = await loadSpec(options.spec);
  const model = normalise(spec);
  const counts = {
    operations: model.operations.length,
    previews: model.operations.filter((o) => o.preview).length,
  };

  const typesText = typesRenderer.render(spec.document);
  typesText.catch(() => undefined); // awaited below; an early failure must not be unhandled
  const templates = await engineModule.loadTemplates(templatesDir, engineModule.createEngine());
  const rendered = renderAll(model, templates, {
    specLabel,
    ...(options.kinds ? { kinds: options.kinds } : {}),
  });
  rendered.push({
    path: 'model.json',
    content: printJson(model, prettier.util.getStringWidth),
    formatted: true,
  });

  const existing = await readTree(options.out);
  const previous = parseManifest(existing.get(MANIFEST));
  const prettierConfig =
    (await prettier.resolveConfig(path.join(path.resolve(options.out), 'index.ts'))) ?? {};
  const cache = { manifest: previous, read: async (rel: string) => existing.get(rel) };
  // Every emitted TypeScript file is parsed by the TypeScript compiler (in the worker). The
  // templates' output is checked there and formatted here while the worker renders the types.
  const templateCheck = typesRenderer.check(rendered.filter((f) => !f.formatted));
  templateCheck.catch(() => undefined);
  const parseErrorsOf = async (checks: Promise<string[]>[]) => {
    const errors = (await Promise.all(checks)).flat();
    if (errors.length > 0) throw new Error(errors.join('\n'));
  };
  const formatTemplates = () =>
    formatFiles(rendered, cache, prettierConfig, true).catch(async (err) => {
      await parseErrorsOf([templateCheck]); // the compiler's message, when it has one, says more
      throw err;
    });
  const header = `// Generated by dataapi from ${specLabel.replace(/[\r\n]/g, ' ')}. Do not edit.\n`;
  const finishTypes = async () => {
    const typesFile = {
      path: 'types.ts',
      content: `${header}/* eslint-disable */\n${await typesText}`,
    };
    await parseErrorsOf([templateCheck, typesRenderer.check([typesFile])]);
    // The worker's last job is done: its heap (the compiler, openapi-typescript's tree) goes now.
    typesRenderer.close();
    return typesFile;
  };
  // A small description formats its templates' output while the worker renders the types (speed);
  // a large one first lets the worker finish and go, so the two memory peaks do not add up.
  const overlap = model.operations.length <= OVERLAP_MAX_OPERATIONS;
  let first: Awaited<ReturnType<typeof formatFiles>>;
  let typesFile: RenderedFile;
  if (overlap) {
    first = await formatTemplates();
    typesFile = await finishTypes();
  } else {
    typesFile = await finishTypes();
    first = await formatTemplates();
  }
  const second = await formatFiles([typesFile], cache, prettierConfig, true);
  const files = [...first.files, ...second.files].sort((a, b) =>
    a.path.localeCompare(b.path, 'en'),
  );
  const manifest: Manifest = {
    version: 1,
    files: { ...first.manifest.files, ...second.manifest.files },
  };
  const formatted = first.formatted + second.formatted;
  if (options.kinds)
    keepOtherKinds(options.kinds, templates.templates.keys(), existing, previous, files, manifest);
  const sortedManifest = {
    ...manifest,
    files: Object.fromEntries(
      Object.entries(manifest.files).sort(([a], [b]) => a.localeCompare(b, 'en')),
    ),
  };
  files.push({ path: MANIFEST, content: JSON.stringify(sortedManifest, null, 2) + '\n' });

  const drift = compareTree(files, existing);
  const written = [...drift.added, ...drift.changed];
  const unchanged = files.length - written.length;
  if (options.check) {
    return {
      model,
      ...counts,
      upToDate: false,
      files,
      written: [],
      unchanged,
      formatted,
      drift,
      ms: performance.now() - started,
    };
  }
  if (written.length > 0 || drift.removed.length > 0)
    await writeTreeAtomically(options.out, files, options.hooks);
  await writeStamp(
    options.out,
    stampContext,
    spec.inputs ?? [path.resolve(options.spec)],
    counts,
    files,
  );
  return {
    model,
    ...counts,
    upToDate: false,
    files,
    written,
    unchanged,
    formatted,
    ms: performance.now() - started,
  };
}

/**
 * With `--kinds`, the files of the kinds not asked for stay as they are (a partial run must not
 * delete the rest of the tree).
 */
function keepOtherKinds(
  kinds: string[],
  templatePaths: Iterable<string>,
  existing: Map<string, string>,
  previous: Manifest | undefined,
  files: RenderedFile[],
  manifest: Manifest,
): void {
  const all = new Set(
    [...templatePaths].filter((t) => t.includes('/')).map((t) => t.split('/')[0]),
  );
  for (const [rel, content] of existing) {
    const kind = rel.split('/')[0] as string;
    if (!rel.includes('/') || !all.has(kind) || kinds.includes(kind)) continue;
    files.push({ path: rel, content });
    const entry = previous?.files[rel];
    if (entry) manifest.files[rel] = entry;
  }
  files.sort((a, b) => a.path.localeCompare(b.path, 'en'));
}

function parseManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Manifest;
    return parsed.version === 1 && typeof parsed.files === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function hasDrift(drift: Drift | undefined): boolean {
  return !!drift && drift.added.length + drift.removed.length + drift.changed.length > 0;
}
