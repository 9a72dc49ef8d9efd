/**
 * The README promises Node 20.19 or newer, and `npm ci` must not warn EBADENGINE there: every
 * package the lockfile installs (dev dependencies included) declares engines that admit the
 * oldest Node that package.json allows. cookie@2 (through Fastify's light-my-request) wants
 * Node 22; the `overrides` entry keeps it at 1.1.1, which has the same API.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// npm's own range semantics (semver is how npm reads `engines`).
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

interface Lock {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
}

describe('engines', () => {
  it('every locked package runs on the oldest Node that package.json allows', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe('20.19.0');
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const refused: string[] = [];
    let checked = 0;
    for (const [name, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!name || range === undefined) continue;
      checked++;
      if (!semver.satisfies(oldest, range)) refused.push(`${name} (node ${range})`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  });
});
