/**
 * Rendering plan. A template's path under templates/ is its output path under the output folder,
 * without `.hbs`. A `[operation]` segment renders once per operation (file stem of the operation
 * id), `[category]` once per category; other templates render once. Every output path is checked
 * to stay inside the output folder.
 *
 * Template context: `{ model, header }` plus `op` (per operation) or `category` (per category).
 */
import path from 'node:path';
import type { ServiceModel } from '../../model/service-model.ts';
import { toFileStem } from '../../model/identifiers.ts';
import type { TemplateSet } from './engine.ts';
import { doNotEditHeader } from './header.ts';

export interface RenderedFile {
  /** Output path relative to the output folder, `/`-separated. */
  path: string;
  content: string;
  /** Already in prettier's layout (the JSON printer): formatting would give the same bytes. */
  formatted?: boolean;
}

export interface RenderOptions {
  /** Shown in each file's header (relative spec path). */
  specLabel: string;
  /** Template kinds (top-level folders) to render; all when omitted. */
  kinds?: string[];
}

/** Template folders that `dataapi generate` leaves alone (rendered by their own command). */
export const SEPARATE_KINDS = new Set(['pack']);

export function safeOutputPath(rel: string): string {
  const normal = path.posix.normalize(rel.split(path.sep).join('/'));
  if (
    normal.startsWith('../') ||
    normal === '..' ||
    path.posix.isAbsolute(normal) ||
    normal.includes('\0')
  ) {
    throw new Error(`refusing to write outside the output folder: ${JSON.stringify(rel)}`);
  }
  return normal;
}

export function renderAll(
  model: ServiceModel,
  set: TemplateSet,
  options: RenderOptions,
): RenderedFile[] {
  const header = doNotEditHeader(options.specLabel);
  const files: RenderedFile[] = [];
  const opStems = new Map(model.operations.map((op) => [op.id, toFileStem(op.id, 'operation')]));
  for (const [rel, template] of set.templates) {
    const kind = rel.split('/')[0] ?? '';
    // Top-level templates (model.ts) are shared by every kind and always rendered.
    if (options.kinds && rel.includes('/') && !options.kinds.includes(kind)) continue;
    // `dataapi pack` renders its own kinds into the package folder, never into generated/.
    if (!options.kinds && SEPARATE_KINDS.has(kind)) continue;
    const target = rel.replace(/\.hbs$/, '');
    if (target.includes('[operation]')) {
      for (const op of model.operations) {
        const out = safeOutputPath(target.replace('[operation]', opStems.get(op.id) as string));
        files.push({ path: out, content: template({ model, header, op }) });
      }
    } else if (target.includes('[category]')) {
      for (const category of model.categories) {
        if (category.operations.length === 0) continue;
        const operations = model.operations.filter((o) => o.category === category.name);
        const out = safeOutputPath(target.replace('[category]', category.identifier));
        files.push({ path: out, content: template({ model, header, category, operations }) });
      }
    } else {
      files.push({ path: safeOutputPath(target), content: template({ model, header }) });
    }
  }
  return files;
}
