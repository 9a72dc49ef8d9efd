/**
 * `dataapi generate`: load -> normalise -> render -> format -> write. The output tree is written
 * atomically, or with `check` compared with the output folder to report drift; nothing is written
 * when anything fails. What makes a run fast without changing a byte of its output (the up-to-date
 * stamp, the format manifest, the TypeScript worker and when it runs) is speed/.
 */
import path from 'node:path';
import { PROJECT_ROOT } from './root.ts';
import type { ServiceModel } from '../model/service-model.ts';
import type { LoadedSpec } from './load-text.ts';
import type { FormatCache } from './emit/format.ts';
import { doNotEditHeader } from './emit/header.ts';
import type { RenderedFile } from './emit/render.ts';
import { withFolderLock } from './emit/lock.ts';
import {
  compareTree,
  readTree,
  writeTreeAtomically,
  type Drift,
  type WriteHooks,
} from './emit/write.ts';
import {
  startSpeedups,
  upToDate,
  type ManifestCache,
  type Speedups,
  type StampContext,
} from './speed/index.ts';

export { PROJECT_ROOT };

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
  /**
   * Type-check the whole generated tree before writing it (default true): output of ours that
   * does not compile fails the run (GeneratedCodeError) instead of being written.
   */
  typecheck?: boolean;
  /**
   * The TypeScript side (openapi-typescript, the syntax and type checks) in a worker thread of its
   * own (default true), which loads TypeScript afresh for every run. false: on the calling thread,
   * where the TypeScript loaded by the first run serves the later ones (one process generating
   * many descriptions one after another: seconds of CPU per run saved). The output is the same.
   */
  typescriptWorker?: boolean;
  /**
   * Only what a contract run reads (model.ts, model.json, mock/ and contract-tests/), as the
   * templates render it: no types.ts, no prettier, no compiler. The `--spec` suite cache
   * (scripts/spec-suite.ts): vitest runs it untyped and nobody reads it, and on GitHub's
   * description the rest is about a minute of CPU. Implies those kinds and `typecheck: false`.
   */
  suiteOnly?: boolean;
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
  /**
   * The type-check of the tree: run (`checked`), not needed because this very tree checked
   * before with the same toolkit (`cached`), or `off` (`typecheck: false`, or an up-to-date run).
   */
  typechecked: Typechecked;
  drift?: Drift;
  ms: number;
}

export type Typechecked = 'checked' | 'cached' | 'off';

/** One run's settings: the options, and what the stamp and the headers are made of. */
interface Job extends StampContext {
  options: GenerateOptions;
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  // `--check` only reads; a writing run waits for another one on the same folder, then usually
  // finds it up to date.
  return options.check ? run(options) : withFolderLock(options.out, () => run(options));
}

async function run(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const job = jobOf(options);
  // `--check` always regenerates: it is what CI trusts.
  const skipped = options.check || options.force ? undefined : await upToDate(options.out, job);
  if (skipped) {
    const { files } = skipped;
    const done = {
      upToDate: true,
      written: [],
      unchanged: files.length,
      formatted: 0,
      typechecked: 'off' as const,
    };
    return { ...skipped, ...done, ms: performance.now() - started };
  }
  const speed = await startSpeedups(options, job);
  try {
    const { inputs, model, rendered } = await loadAndRender(job, speed);
    const existing = await readTree(options.out);
    const cache = speed.formatCache(existing);
    const formatted = await format(job, rendered, cache, speed);
    const result = await write(job, { inputs, model, rendered, formatted }, existing, cache, speed);
    return { ...result, ms: performance.now() - started };
  } finally {
    speed.close();
  }
}

/** The kinds a contract run reads (GenerateOptions.suiteOnly). */
const SUITE_KINDS = ['mock', 'contract-tests'];

/**
 * Load, normalise, render. The loaded description (its document, its text, the positions kept for
 * findings: ~30 MB of live heap on GitHub's) is not needed past rendering, and is not held through
 * formatting, the run's peak.
 */
async function loadAndRender(
  job: Job,
  speed: Speedups,
): Promise<{ inputs: string[]; model: ServiceModel; rendered: Rendered }> {
  const spec = await (await import('./load.ts')).loadSpec(job.options.spec);
  const model = (await import('./normalise/index.ts')).normalise(spec);
  const rendered = await render(job, spec, model, speed);
  return { inputs: spec.inputs ?? [path.resolve(job.options.spec)], model, rendered };
}

function jobOf(options: GenerateOptions): Job {
  const specLabel =
    path.relative(process.cwd(), path.resolve(options.spec)).split(path.sep).join('/') ||
    options.spec;
  const kinds = options.suiteOnly ? SUITE_KINDS : options.kinds;
  return {
    options,
    projectRoot: PROJECT_ROOT,
    templatesDir: options.templatesDir ?? path.join(PROJECT_ROOT, 'templates'),
    specLabel,
    ...(kinds ? { kinds } : {}),
    ...(options.suiteOnly ? { suiteOnly: true } : {}),
  };
}

interface Rendered {
  operations: number;
  /** The templates' output and model.json (already in prettier's layout). */
  files: RenderedFile[];
  /** types.ts, rendered by openapi-typescript in the worker meanwhile (none for a suite). */
  types: Promise<RenderedFile> | undefined;
  /** Every template kind there is (`--kinds` keeps the others' files). */
  kinds: Set<string>;
}

/** Render: types.ts in the worker; the templates over the model and model.json here meanwhile. */
async function render(
  job: Job,
  spec: LoadedSpec,
  model: ServiceModel,
  speed: Speedups,
): Promise<Rendered> {
  const header = `// ${doNotEditHeader(job.specLabel)}\n/* eslint-disable */\n`;
  const types = job.suiteOnly
    ? undefined
    : speed.typescript.render(spec, header).then((content) => ({ path: 'types.ts', content }));
  types?.catch(() => undefined); // awaited by format; an early failure must not be unhandled
  const [engine, { renderAll }, { printJson }, prettier] = await Promise.all([
    import('./emit/engine.ts'),
    import('./emit/render.ts'),
    import('./emit/json-print.ts'),
    import('prettier'),
  ]);
  const templates = await engine.keptTemplates(job.templatesDir);
  const files = renderAll(model, templates, {
    specLabel: job.specLabel,
    ...(job.kinds ? { kinds: job.kinds } : {}),
  });
  const json = printJson(model, prettier.util.getStringWidth);
  files.push({ path: 'model.json', content: json, formatted: true });
  const kinds = [...templates.templates.keys()].filter((t) => t.includes('/'));
  return {
    operations: model.operations.length,
    files,
    types,
    kinds: new Set(kinds.map((t) => t.split('/')[0] as string)),
  };
}

/**
 * Format: prettier over every file, each TypeScript file parsed by the compiler first (in the
 * worker), so a template bug fails the run with its file and line.
 */
async function format(
  job: Job,
  rendered: Rendered,
  cache: FormatCache,
  speed: Speedups,
): Promise<{ files: RenderedFile[]; formatted: number; typechecked: Typechecked }> {
  const pendingTypes = rendered.types;
  if (!pendingTypes) return asRendered(rendered.files, cache);
  const [prettier, { formatFiles }] = await Promise.all([
    import('prettier'),
    import('./emit/format.ts'),
  ]);
  const at = path.join(path.resolve(job.options.out), 'index.ts');
  const config = (await prettier.resolveConfig(at)) ?? {};
  const typecheck = job.options.typecheck !== false;
  // With the type-check, the syntax check's files and parse trees are kept in the worker for it.
  const checked = speed.typescript.check(
    rendered.files.filter((f) => !f.formatted),
    typecheck,
  );
  checked.catch(() => undefined);
  const typesChecked = speed.typescript.checkTypes(typecheck);
  typesChecked.catch(() => undefined);
  // The whole tree's type-check runs in the worker as soon as types.ts is there, while this
  // thread formats: on the unformatted text (the same types; a failed run writes nothing). It is
  // asked for now, with the rest, so that the worker goes on to it without waiting for this
  // thread. A tree that type-checked before, byte for byte and with the same toolkit, is not
  // checked again (speed/typecheck-cache.ts).
  const tree: Promise<{ errors?: string; how: Typechecked }> = typecheck
    ? (await askTreeCheck(job, speed)).answer
    : Promise.resolve({ how: 'off' });
  tree.catch(() => undefined);
  const formatTemplates = () =>
    formatFiles(rendered.files, cache, config, true).catch(async (err) => {
      await throwParseErrors([checked]); // the compiler's message, when it has one, says more
      throw err;
    });
  const finishTypes = async () => {
    const types = await pendingTypes;
    await throwParseErrors([checked, typesChecked]);
    // Its last job is done: its heap (compiler, openapi-typescript) goes.
    if (!typecheck) speed.typescript.close();
    return types;
  };
  const [templates, types] = await speed.overlap(
    rendered.operations,
    formatTemplates,
    finishTypes,
    typecheck,
  );
  // types.ts is formatted while the worker type-checks the tree (which reads the unformatted text).
  const formattingTypes = formatFiles([types], cache, config, true);
  formattingTypes.catch(() => undefined); // a type error is the run's failure then
  const { errors: treeErrors, how } = await tree;
  if (treeErrors) throw new GeneratedCodeError(treeErrors);
  speed.typescript.close();
  const typesFormatted = await formattingTypes;
  return {
    files: [...templates.files, ...typesFormatted.files].sort(byPath),
    formatted: templates.formatted + typesFormatted.formatted,
    typechecked: how,
  };
}

/** Asks the worker for the tree's type-check (once asked, it is answered in `answer`). */
async function askTreeCheck(
  job: Job,
  speed: Speedups,
): Promise<{ answer: Promise<{ errors?: string; how: Typechecked }> }> {
  const where = { outDir: job.options.out, projectRoot: job.projectRoot };
  const records = await import('./speed/typecheck-cache.ts');
  const last = await records.lastChecked(where.projectRoot, where.outDir);
  const answer = speed.typescript.typecheck(where, last).then(async ({ how, key, errors }) => {
    if (how === 'cached') records.usedRecord(where.projectRoot, where.outDir);
    else if (!errors) await records.recordChecked(key, where.projectRoot, where.outDir);
    return { how, ...(errors ? { errors } : {}) };
  });
  return { answer };
}

/** A suite's files as the templates rendered them, each recorded in the manifest as written. */
function asRendered(
  files: RenderedFile[],
  cache: FormatCache,
): { files: RenderedFile[]; formatted: number; typechecked: Typechecked } {
  for (const file of files) cache.record(file, file.content);
  return { files: [...files].sort(byPath), formatted: 0, typechecked: 'off' };
}

/**
 * The toolkit's own output is wrong (it does not parse, or types.ts does not type-check): a fault
 * of the generator, not of the input, so the command exits 1, not 2.
 */
export class GeneratedCodeError extends Error {}

async function throwParseErrors(checks: Promise<string[]>[]): Promise<void> {
  const errors = (await Promise.all(checks)).flat();
  if (errors.length > 0) throw new GeneratedCodeError(errors.join('\n'));
}

const byPath = (a: RenderedFile, b: RenderedFile) => a.path.localeCompare(b.path, 'en');

/**
 * Write: the manifest beside the files, the drift against the output folder (`check` stops there),
 * then the atomic swap and the stamp.
 */
async function write(
  job: Job,
  run: {
    inputs: string[];
    model: ServiceModel;
    rendered: Rendered;
    formatted: { files: RenderedFile[]; formatted: number; typechecked: Typechecked };
  },
  existing: Map<string, string>,
  cache: ManifestCache,
  speed: Speedups,
): Promise<Omit<GenerateResult, 'ms'>> {
  const { options } = job;
  const files = run.formatted.files;
  if (job.kinds) keepOtherKinds(job.kinds, run.rendered.kinds, existing, cache, files);
  files.push(cache.file());
  const drift = compareTree(files, existing);
  const written = [...drift.added, ...drift.changed];
  const counts = {
    operations: run.model.operations.length,
    previews: run.model.operations.filter((o) => o.preview).length,
  };
  const result = {
    model: run.model,
    ...counts,
    upToDate: false,
    files,
    unchanged: files.length - written.length,
    formatted: run.formatted.formatted,
    typechecked: run.formatted.typechecked,
  };
  if (options.check) return { ...result, written: [], drift };
  if (written.length > 0 || drift.removed.length > 0)
    await writeTreeAtomically(options.out, files, options.hooks);
  await speed.stamp(run.inputs, counts, files);
  return { ...result, written };
}

/**
 * With `--kinds`, the files of the kinds not asked for stay as they are (a partial run must not
 * delete the rest of the tree).
 */
function keepOtherKinds(
  kinds: string[],
  all: Set<string>,
  existing: Map<string, string>,
  cache: ManifestCache,
  files: RenderedFile[],
): void {
  for (const [rel, content] of existing) {
    const kind = rel.split('/')[0] as string;
    if (!rel.includes('/') || !all.has(kind) || kinds.includes(kind)) continue;
    files.push({ path: rel, content });
    cache.keep(rel);
  }
  files.sort(byPath);
}

export function hasDrift(drift: Drift | undefined): boolean {
  return !!drift && drift.added.length + drift.removed.length + drift.changed.length > 0;
}
