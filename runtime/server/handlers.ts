/**
 * Loads an integrator's handler files (handlers/<op-file-stem>.ts, each exporting
 * `export const getAirQuality: Handlers['getAirQuality'] = async (input) => ...`): every export
 * named like an operation of the model becomes that operation's handler.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServiceModel } from 'dataapi/model';
import type { Handler } from './register.ts';

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
  for (const name of names.sort()) {
    const mod = (await import(pathToFileURL(path.join(dir, name)).href)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(mod)) {
      if (ids.has(exported) && typeof value === 'function') out[exported] = value as Handler;
    }
  }
  return out;
}
