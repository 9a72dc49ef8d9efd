/**
 * Loads an integrator's handler files (handlers/<op-file-stem>.ts, each exporting
 * `export const getAirQuality: Handlers['getAirQuality'] = async (input) => ...`): every export
 * named like an operation of the model becomes that operation's handler; so does each member of a
 * default export that is an object keyed by operation id (handlers built in code). TypeScript files
 * are loaded through tsx when the process cannot read them itself (../shared/import-file.ts).
 * A file that cannot be loaded, or two files exporting the same operation, stop the load with a
 * message naming the file.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import type { Handler } from './register.ts';
import { importFile } from '../shared/import-file.ts';

export async function loadHandlers(
  dir: string,
  model: ServiceModel,
): Promise<Record<string, Handler>> {
  const ids = new Set(model.operations.map((o) => o.id));
  const out: Record<string, Handler> = {};
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /\.(ts|js|mjs)$/.test(n) && !n.endsWith('.d.ts'));
  } catch {
    return out; // no handlers folder yet: every operation answers 501
  }
  const from = new Map<string, string>();
  for (const name of names.sort()) {
    let mod: Record<string, unknown>;
    try {
      mod = await importFile(path.join(dir, name));
    } catch (err) {
      throw new Error(
        `cannot load the handler file ${path.join(dir, name)}: ${(err as Error).message}`,
      );
    }
    const byDefault =
      typeof mod.default === 'object' && mod.default !== null
        ? Object.entries(mod.default as Record<string, unknown>)
        : [];
    for (const [exported, value] of [...Object.entries(mod), ...byDefault]) {
      if (!ids.has(exported) || typeof value !== 'function') continue;
      const earlier = from.get(exported);
      // Loaded as CommonJS (a file outside any "type": "module" package), a module's default
      // export is its exports object: the same function again, not a second handler.
      if (earlier === name && out[exported] === value) continue;
      if (earlier !== undefined) {
        throw new Error(
          `${exported} has a handler in both ${earlier} and ${name} (handlers in ${dir})`,
        );
      }
      from.set(exported, name);
      out[exported] = value as Handler;
    }
  }
  return out;
}
