/**
 * A contract run's input, checked before any request: the model, the --only selection, the
 * report folders and the --base-url. Bad input is a RunError with exit code 2.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { serverPath, type ServiceModel } from 'dataapi/model';
import type { Redactor } from 'dataapi/runtime/shared';
import { didYouMean } from '../model/suggest.ts';
import { MissingModelError, readModelFile } from '../runtime/shared/model-file.ts';
import type { Variant } from './results.ts';
import { RunError } from './run-error.ts';

/**
 * The operations of --only, each with the variants to run: an operation id (both variants), or
 * the operationId of its explicit /demo variant or the variant's generated id (the preview only).
 */
export function selectOperations(model: ServiceModel, names: string[]): Record<string, Variant[]> {
  const byName = new Map<string, { op: string; variant?: Variant }>();
  for (const op of model.operations) {
    byName.set(op.id, { op: op.id });
    if (op.operationId) byName.set(op.operationId, { op: op.id });
    if (op.preview) {
      byName.set(op.preview.id, { op: op.id, variant: 'preview' });
      if (op.preview.operationId)
        byName.set(op.preview.operationId, { op: op.id, variant: 'preview' });
    }
  }
  const out: Record<string, Variant[]> = {};
  for (const name of names) {
    const hit = byName.get(name);
    if (!hit)
      throw new RunError(
        `unknown operation ${JSON.stringify(name)} in --only${didYouMean(name, [...byName.keys()])}. Known: ${model.operations.map((op) => op.id).join(', ')}`,
        2,
      );
    const variants = hit.variant ? [hit.variant] : (['main', 'preview'] as Variant[]);
    out[hit.op] = [...new Set([...(out[hit.op] ?? []), ...variants])];
  }
  return out;
}

/** A report folder that exists as something else is bad input (exit 2), found before any request. */
export async function refuseNonFolder(dir: string, flag: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory())
    throw new RunError(`${flag}: ${path.relative(process.cwd(), dir) || dir} is not a folder`, 2);
}

export async function loadModel(generatedDir: string): Promise<ServiceModel> {
  try {
    return await readModelFile(generatedDir);
  } catch (err) {
    if (err instanceof MissingModelError) throw new RunError(err.message, 2);
    throw err;
  }
}

/** The --base-url as a URL (http or https only); bad input is exit 2. */
export function parseBaseUrl(baseUrl: string, redactor: Redactor): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new RunError(
      `--base-url must be an http:// or https:// URL, got ${JSON.stringify(redactor.url(baseUrl))}`,
      2,
    );
  return url;
}

/**
 * --base-url for the run: given with no path, for a description whose server URL has one
 * (`/api/v2`), the server's path is joined to it (as every client of the description would send
 * it); given with a path, it is used as it is. `joined` says what was added.
 */
export function baseUrlFor(
  given: string,
  model: ServiceModel,
): { baseUrl: string; joined?: string } {
  const trimmed = given.replace(/\/+$/, '');
  const path = serverPath(model);
  let pathname = '/';
  try {
    pathname = new URL(given).pathname;
  } catch {
    return { baseUrl: trimmed };
  }
  if (path === '' || pathname.replace(/\/+$/, '') !== '') return { baseUrl: trimmed };
  return { baseUrl: `${trimmed}${path}`, joined: path };
}

/** ANSI colours on a terminal unless NO_COLOR; FORCE_COLOR (not 0) forces them. */
export function colorFor(out: NodeJS.WritableStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return !process.env.NO_COLOR && (out as { isTTY?: boolean }).isTTY === true;
}
