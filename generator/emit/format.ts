/**
 * Formatting and syntax verification of emitted files.
 *
 * prettier formats every file. Each `.ts` file is parsed by the TypeScript compiler first, so a
 * template bug fails the run with the file and line instead of landing in generated/. A cache
 * (the output folder's manifest, generator/speed/manifest.ts) can hand back a file's formatted
 * text from an earlier run when its unformatted text is unchanged: the same bytes either way.
 */
import * as prettier from 'prettier';
import type { RenderedFile } from './render.ts';
import { shapeFormatter } from './format-shapes.ts';
import { formatWithLongStrings, LONG } from './format-long-strings.ts';
import { layoutTypes } from './types-layout.ts';

/** Formatted text known from an earlier run. */
export interface FormatCache {
  /** The file's formatted text from an earlier run, when its unformatted text is unchanged. */
  reuse(file: RenderedFile): string | undefined;
  /** Remembers the formatted text of a file. */
  record(file: RenderedFile, formatted: string): void;
}

/** Throws when the file does not parse (on the main thread, when no worker checked it). */
export async function verifySyntax(file: RenderedFile): Promise<void> {
  const error = (await import('./typescript-side.mjs')).syntaxError(file);
  if (error) throw new Error(error);
}

function parserFor(file: string): string | undefined {
  // babel-ts prints the same bytes as the typescript parser here (verified on the service and a
  // 2,000-operation description) in 40% less time; the typescript parser remains the fallback.
  if (/\.(ts|tsx|mts)$/.test(file)) return 'babel-ts';
  if (file.endsWith('.json')) return 'json';
  if (file.endsWith('.md')) return 'markdown';
  if (file.endsWith('.yaml') || file.endsWith('.yml')) return 'yaml';
  return undefined;
}

export async function formatFiles(
  files: RenderedFile[],
  cache: FormatCache,
  options: prettier.Options,
  /** The files were already parsed by the TypeScript compiler (in the worker). */
  verified = false,
): Promise<{ files: RenderedFile[]; formatted: number }> {
  let formatted = 0;
  // Files that differ only in their strings and comments share one prettier run (format-shapes.ts).
  const byShape = new Map<string, (text: string) => Promise<string>>();
  const out: RenderedFile[] = [];
  let yielded = performance.now();
  for (const file of files) {
    // prettier's work is all promises: without a turn of the event loop now and then, the
    // worker's answers and the type-check's start wait for the whole tree to be formatted.
    if (performance.now() - yielded > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      yielded = performance.now();
    }
    const known = cache.reuse(file);
    if (known !== undefined) {
      out.push({ path: file.path, content: known });
      continue;
    }
    if (file.formatted) {
      out.push({ path: file.path, content: file.content });
      cache.record(file, file.content);
      continue;
    }
    if (!verified) await verifySyntax(file);
    const parser = parserFor(file.path);
    const format = (text: string, printWidth = options.printWidth) =>
      prettier
        .format(text, { ...options, printWidth, parser: parser as string })
        .catch(() => prettier.format(text, { ...options, printWidth, parser: 'typescript' }));
    const long =
      parser === 'babel-ts' && file.path !== 'types.ts' && file.content.length >= LONG
        ? await formatWithLongStrings(file.content, options.singleQuote ?? false, format).catch(
            () => undefined,
          )
        : undefined;
    const content = !parser
      ? file.content
      : file.path === 'types.ts'
        ? await formatTypes(file.content, options, format)
        : (long ?? (await shaped(byShape, parser, format)(file.content)));
    formatted++;
    out.push({ path: file.path, content });
    cache.record(file, content);
  }
  return { files: out, formatted };
}

/** The shape-sharing formatter of one parser (TypeScript files only). */
function shaped(
  byShape: Map<string, (text: string) => Promise<string>>,
  parser: string,
  format: (text: string) => Promise<string>,
): (text: string) => Promise<string> {
  if (parser !== 'babel-ts') return format;
  let formatter = byShape.get(parser);
  if (!formatter) byShape.set(parser, (formatter = shapeFormatter((text) => format(text))));
  return formatter;
}

/**
 * types.ts (openapi-typescript's output) laid out as prettier would (see types-layout.ts), with
 * prettier only over the members whose layout it decides; prettier over the whole file when the
 * options or the text are not what that layout models.
 */
export async function formatTypes(
  text: string,
  options: prettier.Options,
  format: (text: string, printWidth?: number) => Promise<string>,
): Promise<string> {
  const modelled =
    (options.tabWidth ?? 2) === 2 &&
    !options.useTabs &&
    options.semi !== false &&
    (options.quoteProps ?? 'as-needed') === 'as-needed' &&
    (options.endOfLine ?? 'lf') === 'lf';
  const laid = modelled
    ? await layoutTypes(
        text,
        {
          printWidth: options.printWidth ?? 80,
          singleQuote: options.singleQuote ?? false,
          measure: prettier.util.getStringWidth,
        },
        format,
      )
    : undefined;
  return laid?.text ?? formatByDeclaration(text, format);
}

/**
 * openapi-typescript's output is a few top-level declarations (paths, webhooks, components, $defs,
 * operations), each starting an unindented `export` line. Formatted one at a time (and joined with
 * a blank line where the source had one, as prettier keeps it) they give prettier's bytes for the
 * whole file with a third of its peak memory, which for a large description is the run's peak
 * (test/generator/format.test.ts holds the two equal).
 */
export async function formatByDeclaration(
  text: string,
  format: (text: string) => Promise<string>,
): Promise<string> {
  const parts = text.split(/\n(?=export )/);
  let out = '';
  for (const [i, part] of parts.entries()) {
    out += await format(part);
    if (i < parts.length - 1 && /\n\s*$/.test(part)) out += '\n';
  }
  return out;
}
