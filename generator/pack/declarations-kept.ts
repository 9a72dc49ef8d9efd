/**
 * The packed client's declarations kept between runs, in the toolkit's cache folder: `pack client
 * --version auto` packs the working tree and BASE, which mostly emit the same declarations, and
 * the compiler's check and emit are most of a pack's CPU. A kept result is used only when
 * everything the compiler read is unchanged: the stage's texts, each file it read (by content),
 * and each question it asked of the file system (which files and folders exist, where a link
 * points), recorded on the run that kept it; and the compiler's version and this code's own.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';
import { cachedFile, keepCached, readCached } from '../speed/toolkit-cache.ts';

export type Declarations = Map<string, string>;

/** What the compiler read: file contents by hash (null: absent), and file-system answers. */
interface Reads {
  files: Record<string, string | null>;
  probes: Record<string, boolean | string>;
}

interface Kept {
  reads: Reads;
  declarations: [string, string][];
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** This module and the emitter's own code: a change to either is a new key. */
function ownCode(): string {
  const here = fileURLToPath(import.meta.url);
  const ext = path.extname(here);
  return ['declarations-kept', 'declarations']
    .map((name) => sha(readFileSync(path.join(path.dirname(here), `${name}${ext}`), 'utf8')))
    .join(':');
}

/** Paths inside the toolkit's folder by their place in it: BASE's extracted copy shares entries. */
function pathNames(root: string) {
  const inside = `${path.resolve(root)}${path.sep}`;
  return {
    name: (p: string) => {
      const abs = path.resolve(root, p);
      return abs.startsWith(inside)
        ? `@/${abs.slice(inside.length).split(path.sep).join('/')}`
        : abs;
    },
    file: (name: string) => (name.startsWith('@/') ? path.join(root, name.slice(2)) : name),
  };
}

/** Records what the host's compiler reads and asks (files outside `virtual` only). */
function recordReads(host: TS.CompilerHost, root: string, virtual: Set<string>): Reads {
  const reads: Reads = { files: {}, probes: {} };
  const { name } = pathNames(root);
  const own = (f: string) => virtual.has(path.resolve(root, f));
  // The stage's folder exists only for this host.
  const stageDirs = new Set([...virtual].map((f) => path.dirname(f)));
  const { getSourceFile, readFile, fileExists, directoryExists, realpath } = host;
  host.getSourceFile = (f, ...rest) => {
    const sf = getSourceFile.call(host, f, ...rest);
    if (!own(f)) reads.files[name(f)] = sf ? sha(sf.text) : null;
    return sf;
  };
  host.readFile = (f) => {
    const text = readFile.call(host, f);
    if (!own(f)) reads.files[name(f)] = text === undefined ? null : sha(text);
    return text;
  };
  host.fileExists = (f) => {
    const found = fileExists.call(host, f);
    if (!own(f)) reads.probes[`file ${name(f)}`] = found;
    return found;
  };
  if (directoryExists)
    host.directoryExists = (d) => {
      const found = directoryExists.call(host, d);
      if (!stageDirs.has(path.resolve(root, d))) reads.probes[`dir ${name(d)}`] = found;
      return found;
    };
  if (realpath)
    host.realpath = (p) => {
      const real = realpath.call(host, p);
      reads.probes[`real ${name(p)}`] = name(real);
      return real;
    };
  return reads;
}

function fileHash(file: string): string | null {
  try {
    return sha(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Whether the file system answers every recorded read and question as it did. */
function unchanged(reads: Reads, root: string): boolean {
  const { name, file } = pathNames(root);
  for (const [n, hash] of Object.entries(reads.files)) if (fileHash(file(n)) !== hash) return false;
  for (const [probe, answer] of Object.entries(reads.probes)) {
    const space = probe.indexOf(' ');
    const kind = probe.slice(0, space);
    const p = file(probe.slice(space + 1));
    let now: boolean | string;
    if (kind === 'real') {
      try {
        now = name(realpathSync(p));
      } catch {
        now = name(p);
      }
    } else {
      const stat = statSync(p, { throwIfNoEntry: false });
      now = kind === 'dir' ? stat?.isDirectory() === true : stat?.isFile() === true;
    }
    if (now !== answer) return false;
  }
  return true;
}

/**
 * The declarations of `stage` (texts by path) under compiler options `options`, kept or computed.
 * `compute` gets a function that makes a compiler host record what it reads; a computation that
 * throws keeps nothing.
 */
export function keptDeclarations(
  ts: typeof TS,
  root: string,
  options: TS.CompilerOptions,
  stage: Map<string, string>,
  compute: (record: (host: TS.CompilerHost) => void) => Declarations,
): { declarations: Declarations; kept: boolean } {
  const { name } = pathNames(root);
  const key = {
    v: 1,
    code: ownCode(),
    ts: ts.version,
    // The options as the toolkit's folder decides them (its sources or dist/, its type roots).
    conditions: options.customConditions ?? [],
    typeRoots: (options.typeRoots ?? []).map(name),
    stage: [...stage].map(([p, text]) => [name(p), sha(text)]),
  };
  const file = cachedFile('pack-declarations', key, '.json');
  const text = readCached(file);
  if (text !== undefined) {
    try {
      const entry = JSON.parse(text) as Kept;
      if (unchanged(entry.reads, root))
        return { declarations: new Map(entry.declarations), kept: true };
    } catch {
      // torn or foreign: computed again below
    }
  }
  let reads: Reads | undefined;
  const virtual = new Set([...stage.keys()].map((p) => path.resolve(root, p)));
  const declarations = compute((host) => {
    reads = recordReads(host, root, virtual);
  });
  if (reads) {
    const entry: Kept = { reads, declarations: [...declarations] };
    keepCached(file, JSON.stringify(entry), 16);
  }
  return { declarations, kept: false };
}
