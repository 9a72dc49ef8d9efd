/**
 * The audited lists of docs/field.md: for each server of the field panel, the failures a run must
 * report, one table row each between `<!-- field:NAME -->` and `<!-- /field:NAME -->` (the first
 * two cells: the operation and the check, in backticks). The page is the one place they are
 * written; the tests compare a run's failures with it, both ways.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../contract/harness.ts';

export const FIELD_PAGE = path.join(ROOT, 'docs/field.md');

/** `operation check` of every failure the page lists for the server, sorted. */
export function expectedFailures(name: string, page = readFileSync(FIELD_PAGE, 'utf8')): string[] {
  const start = page.indexOf(`<!-- field:${name} -->`);
  const end = page.indexOf(`<!-- /field:${name} -->`);
  if (start < 0 || end < start) throw new Error(`docs/field.md has no list for ${name}`);
  const rows = page
    .slice(start, end)
    .split('\n')
    .map((line) => /^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]} ${m[2]}`);
  return [...new Set(rows)].sort();
}
