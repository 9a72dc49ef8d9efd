/**
 * The checks, each defined once: its name, what it verifies (the title report legends show), the
 * abbreviation narrow matrices use and the variants it applies to; its judge is in registry.ts.
 * Results, the generated suites, the console matrix, JUnit, HTML, JSON and coverage all read this
 * list, and the order here is the order everything runs and shows them in. Apart from the judges
 * so that what only names checks (the command line, the runner's reports) does not load them and
 * what they read (XML, the sampler).
 */
import { CHECK_DIAGNOSTICS, type CheckCode } from 'dataapi/model';
import type { Variant } from '../exchange.ts';

export interface CheckInfo {
  name: string;
  /** What the check verifies, one line (the catalogue's title: model/diagnostics-verdicts.ts). */
  title: string;
  /** Two characters, unique: the column heading of narrow matrices. */
  abbreviation: string;
  /**
   * The variants the check runs on (the preview variant takes no key, so the checks of keys,
   * invalid input, methods and lifecycles are main-only). Within a variant a judge may still
   * skip an operation it does not apply to, saying why (no key, no async pair, ...).
   */
  variants: readonly Variant[];
}

const BOTH = ['main', 'preview'] as const;
/** A check's name, title and norm are its catalogue entry's. */
const named = <N extends CheckCode>(name: N) => ({ name, title: CHECK_DIAGNOSTICS[name].title });
const MAIN = ['main'] as const;

export const CHECK_DEFINITIONS = [
  {
    ...named('status'),
    abbreviation: 'st',
    variants: BOTH,
  },
  {
    ...named('content-type'),
    abbreviation: 'ct',
    variants: BOTH,
  },
  {
    ...named('envelope'),
    abbreviation: 'en',
    variants: BOTH,
  },
  {
    ...named('business-code'),
    abbreviation: 'bc',
    variants: BOTH,
  },
  {
    ...named('schema'),
    abbreviation: 'sc',
    variants: BOTH,
  },
  {
    ...named('paging'),
    abbreviation: 'pg',
    variants: BOTH,
  },
  {
    ...named('auth'),
    abbreviation: 'au',
    variants: BOTH,
  },
  {
    ...named('negative'),
    abbreviation: 'ng',
    variants: MAIN,
  },
  {
    ...named('method-path'),
    abbreviation: 'mp',
    variants: MAIN,
  },
  {
    ...named('lifecycle'),
    abbreviation: 'lc',
    variants: MAIN,
  },
  {
    ...named('headers'),
    abbreviation: 'hd',
    variants: BOTH,
  },
  {
    ...named('deprecation'),
    abbreviation: 'dp',
    variants: BOTH,
  },
  {
    ...named('response-time'),
    abbreviation: 'rt',
    variants: BOTH,
  },
  {
    ...named('server-errors'),
    abbreviation: '5x',
    variants: BOTH,
  },
] as const satisfies readonly CheckInfo[];

export type CheckName = (typeof CHECK_DEFINITIONS)[number]['name'];
// Every check of the catalogue is defined here, and nothing else: these stop compiling otherwise.
const everyCheck: [CheckCode] extends [CheckName] ? true : never = true;
const onlyChecks: [CheckName] extends [CheckCode] ? true : never = true;
void everyCheck;
void onlyChecks;

/** Every check, in the order each operation's file runs them. */
export const CHECKS: readonly CheckName[] = CHECK_DEFINITIONS.map((d) => d.name);

/** Checks the preview (`/demo`, no key) variant runs; the others are main-variant only. */
export const PREVIEW_CHECKS: readonly CheckName[] = CHECK_DEFINITIONS.filter((d) =>
  (d.variants as readonly Variant[]).includes('preview'),
).map((d) => d.name);

/** What each check verifies, for report legends. */
export const CHECK_TITLES = Object.fromEntries(
  CHECK_DEFINITIONS.map((d) => [d.name, d.title]),
) as Record<CheckName, string>;

/** Short column headings for narrow matrices (console), in CHECKS order. */
export const CHECK_ABBREVIATIONS = Object.fromEntries(
  CHECK_DEFINITIONS.map((d) => [d.name, d.abbreviation]),
) as Record<CheckName, string>;
