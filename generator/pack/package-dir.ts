/** Where Node would find a package from the toolkit's folder: its own node_modules or a parent's (an installed toolkit's dependencies are hoisted). */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function packageDir(root: string, name: string): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return path.join(root, 'node_modules', name);
  }
}

/** Every node_modules/@types folder Node's lookup passes from the toolkit's folder. */
export function typeRootsFrom(root: string): string[] {
  const out: string[] = [];
  for (let dir = root; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', '@types');
    if (existsSync(candidate)) out.push(candidate);
    if (path.dirname(dir) === dir) return out;
  }
}

/**
 * Whether the toolkit runs in its own repository (the runtime's TypeScript sources are there) or
 * installed (only dist/: compiled JavaScript and declarations).
 */
export function fromSources(root: string): boolean {
  return existsSync(path.join(root, 'runtime', 'client', 'index.ts'));
}
