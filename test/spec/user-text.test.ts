/**
 * Text that users read: the description (shown at /docs, in the types' comments and in the packed
 * client's README), generated/, templates/, the README and docs/. It cites no document called
 * "seed" (users do not have it: the interface document is cited by section, or the fact said
 * plainly), and no description has a line that Markdown would read as a numbered list item.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { doc } from './seed.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const USER_FACING = ['spec', 'generated', 'templates', 'docs', 'README.md'];

/** "seed 7.2", "(seed\n 1.4)", "Seed section 8"; not the fuzzer's `--seed 42`. */
export const SEED_CITATION = /(?<![-\w])seed(?:\s+section)?[\s#*/]+\d+(?:\.\d+)?\b/gi;

function files(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (statSync(full).isFile()) return [rel];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)));
}

/** Every description and summary string of the description, with its JSON pointer. */
function texts(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => texts(v, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    (k === 'description' || k === 'summary') && typeof v === 'string'
      ? [[`${at}/${k}`, v] as [string, string]]
      : texts(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

describe('text users read', () => {
  it('cites no "seed N.M" (spec, generated/, templates, README, docs/)', () => {
    const found: string[] = [];
    for (const rel of USER_FACING.flatMap(files)) {
      const text = readFileSync(path.join(ROOT, rel), 'utf8');
      for (const m of text.matchAll(SEED_CITATION)) {
        const line = text.slice(0, m.index).split('\n').length;
        found.push(`${rel}:${line}: ${m[0].replace(/\s+/g, ' ')}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the pattern finds citations and leaves the fuzzer alone', () => {
    const sample = 'as listed (seed 4.12), see seed\n    # 7.2 and Seed section 8; --seed 42';
    expect(sample.match(SEED_CITATION)).toEqual(['seed 4.12', 'seed\n    # 7.2', 'Seed section 8']);
  });

  it('has no line inside a paragraph that Markdown reads as a numbered item ("...\\n502. ...")', () => {
    const found: string[] = [];
    for (const [pointer, text] of texts(doc)) {
      for (const paragraph of text.split(/\n\s*\n/)) {
        // A numbered item may open the paragraph, follow a heading or another item; after
        // prose it starts a list nobody meant (CommonMark lets any number do so in a list).
        let listOk = true;
        for (const line of paragraph.split('\n')) {
          if (/^\s*#/.test(line)) listOk = true;
          else if (/^\s*\d+[.)](\s|$)/.test(line)) {
            if (!listOk) found.push(`${pointer}: ${line.trim()}`);
          } else if (!/^\s/.test(line)) listOk = false; // prose; an indented line continues an item
        }
      }
    }
    expect(found).toEqual([]);
  });
});
