/** The committed list of known disagreements (agreement-known.json) and the findings it does not list. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classOf, type Finding } from './agreement.ts';

export interface KnownDisagreement {
  class: string;
  /** A corpus id, or `*` for any description. */
  description: string;
  reason: string;
}

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'agreement-known.json');

export function knownDisagreements(): KnownDisagreement[] {
  return (JSON.parse(readFileSync(FILE, 'utf8')) as { known: KnownDisagreement[] }).known;
}

/** The findings of one description that the known list does not cover. */
export function unknownFindings(
  id: string,
  findings: Finding[],
  known = knownDisagreements(),
): Finding[] {
  return findings.filter(
    (f) =>
      !known.some((k) => k.class === classOf(f) && (k.description === '*' || k.description === id)),
  );
}
