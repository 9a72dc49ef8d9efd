/**
 * `dataapi pack client --version auto --base REV`: the client's semver from what changed since
 * BASE. The description's changes come from `dataapi diff` (breaking: major; any other change of
 * the contract: minor; text only or nothing: patch), from BASE's version (its info.version, as
 * `pack` reads it). The package's own declarations are compared as well (surface.ts): a client
 * type or method that disappears while the description did not remove it is a break of the
 * template or generator, and also a major.
 */
import { compareSides } from '../diff/index.ts';
import { DiffInputError, openSide } from '../diff/sides.ts';
import type { Change } from '../diff/types.ts';
import { PackInputError } from './errors.ts';
import { packageVersion } from './manifest.ts';

export type Level = 'major' | 'minor' | 'patch';

export interface VersionDecision {
  /** BASE's version. */
  base: string;
  level: Level;
  version: string;
  /** Why, one line each (the changes that decided the level). */
  reasons: string[];
}

/** Changes that are text only: the contract is the same. */
const TEXT_ONLY = new Set(['api-operation-text-changed']);

/** The level the description's changes call for, and the changes that decide it. */
export function levelOfChanges(changes: Change[]): { level: Level; reasons: string[] } {
  const line = (c: Change) =>
    `${c.code}: ${c.message}${c.operation !== undefined ? ` (${c.operation})` : ''}`;
  const breaking = changes.filter((c) => c.severity === 'breaking');
  if (breaking.length > 0) return { level: 'major', reasons: breaking.map(line) };
  const contract = changes.filter((c) => !TEXT_ONLY.has(c.code));
  if (contract.length > 0) return { level: 'minor', reasons: contract.map(line) };
  return {
    level: 'patch',
    reasons: changes.length > 0 ? changes.map(line) : ['no change to the description'],
  };
}

/** `1.4.2` raised by a level (a pre-release or build suffix of BASE is dropped). */
export function bump(version: string, level: Level): string {
  const [major, minor, patch] = version
    .replace(/[-+].*$/, '')
    .split('.')
    .map((n) => Number(n)) as [number, number, number];
  if (level === 'major') return `${major + 1}.0.0`;
  if (level === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

const ORDER: Level[] = ['patch', 'minor', 'major'];
export const higher = (a: Level, b: Level): Level => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

/** The decision from the description alone: diff BASE against the working tree's spec. */
export async function versionFromDiff(options: {
  base: string;
  spec: string;
  cwd?: string;
}): Promise<VersionDecision & { removedOperations: string[] }> {
  const cwd = options.cwd ?? process.cwd();
  try {
    const base = await openSide(options.base, 'BASE', { cwd, spec: options.spec });
    const head = await openSide(options.spec, 'HEAD', { cwd, spec: options.spec });
    const changes = compareSides(base, head);
    const baseVersion = packageVersion(undefined, base.model.version);
    const { level, reasons } = levelOfChanges(changes);
    // The client's names of what the description removed (methods and their preview variants).
    const names = (ops: typeof base.model.operations) =>
      ops.flatMap((o) => [
        o.id,
        ...(o.preview ? [o.preview.id] : []),
        ...(o.async?.role === 'submit' ? [`${o.id}AndWait`] : []),
      ]);
    const kept = new Set(names(head.model.operations));
    const removedOperations = names(base.model.operations).filter((id) => !kept.has(id));
    return {
      base: baseVersion,
      level,
      version: bump(baseVersion, level),
      reasons,
      removedOperations,
    };
  } catch (err) {
    if (err instanceof DiffInputError) throw new PackInputError(`--base: ${err.message}`);
    throw err;
  }
}
