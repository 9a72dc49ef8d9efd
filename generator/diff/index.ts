/**
 * `dataapi diff`: compares two versions of a description and classifies every change as
 * breaking, warning or compatible, with a stable rule id and where it is.
 */
import { applyAllowances, parseAllowFlag, readAllowExtension, type Allowance } from './allow.ts';
import { dirtyKeys } from './canon.ts';
import { compareOperations } from './operations.ts';
import { severityOf } from './rules.ts';
import { today } from '../../model/lifecycle.ts';
import { DiffInputError, openSide } from './sides.ts';
import { lineOf, type DiffSide } from './side.ts';
import type { Change, DiffReport } from './types.ts';

export { RULES, type RuleId, type Severity } from './rules.ts';
export type { Change, DiffReport } from './types.ts';
export { DiffInputError } from './sides.ts';
export { formatReport, type DiffFormat } from './format.ts';
export { readAllowExtension, ALLOW_EXTENSION } from './allow.ts';

export interface DiffOptions {
  base: string;
  /** Default: the working tree's description (`spec`). */
  head?: string;
  /** The description in the working tree (default HEAD, and the path used for a bare revision). */
  spec?: string;
  cwd?: string;
  /** `RULE` or `RULE:operationId`. */
  allow?: string[];
  /** The day sunsets are compared with (`YYYY-MM-DD`, UTC; default today): tests fix it. */
  today?: string;
}

/** Compares two loaded sides (no allowances applied). */
export function compareSides(base: DiffSide, head: DiffSide, day: string = today()): Change[] {
  const changes: Change[] = [];
  compareOperations(base, head, dirtyKeys(base.space, head.space), (c) => changes.push(c), day);
  return changes;
}

export async function diffSpecs(options: DiffOptions): Promise<DiffReport> {
  const cwd = options.cwd ?? process.cwd();
  const spec = options.spec ?? 'spec/openapi.yaml';
  let flags: Allowance[];
  try {
    flags = (options.allow ?? []).map(parseAllowFlag);
  } catch (err) {
    throw new DiffInputError((err as Error).message);
  }
  const base = await openSide(options.base, 'BASE', { cwd, spec });
  const head = await openSide(options.head ?? spec, 'HEAD', { cwd, spec });
  const ext = readAllowExtension(head.loaded.document);
  if (ext.problems.length > 0) {
    const lines = ext.problems.map((p) => {
      const line = lineOf(head, p.pointer);
      return `  ${head.label}${line !== undefined ? `:${line}` : ''} at #${p.pointer}: ${p.message}`;
    });
    throw new DiffInputError(
      `HEAD ${head.label}: invalid x-dataapi-allow-breaking\n${lines.join('\n')}`,
    );
  }
  const changes = compareSides(base, head, options.today);
  const unusedAllowances = applyAllowances(changes, [...flags, ...ext.allowances]);
  return report(base.label, head.label, changes, unusedAllowances);
}

const ORDER = { breaking: 0, warning: 1, compatible: 2 } as const;

function report(
  base: string,
  head: string,
  changes: Change[],
  unused: DiffReport['unusedAllowances'],
): DiffReport {
  changes.sort(
    (a, b) =>
      ORDER[a.severity] - ORDER[b.severity] ||
      (a.path ?? '').localeCompare(b.path ?? '', 'en') ||
      (a.method ?? '').localeCompare(b.method ?? '', 'en') ||
      a.code.localeCompare(b.code, 'en') ||
      a.pointer.localeCompare(b.pointer, 'en'),
  );
  const count = (s: Change['severity']) =>
    changes.filter((c) => c.severity === s && !c.allowed).length;
  return {
    base,
    head,
    changes,
    unusedAllowances: unused,
    summary: {
      breaking: count('breaking'),
      warning: count('warning'),
      compatible: count('compatible'),
      allowed: changes.filter((c) => c.allowed).length,
    },
  };
}

/** 1 when a breaking change is not accepted, else 0. */
export const exitCodeOf = (r: DiffReport) => (r.summary.breaking > 0 ? 1 : 0);
export { severityOf };
