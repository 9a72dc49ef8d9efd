/**
 * The checks, each defined once: its name, what it verifies (the title report legends show), the
 * abbreviation narrow matrices use and the variants it applies to; its judge is in registry.ts.
 * Results, the generated suites, the console matrix, JUnit, HTML, JSON and coverage all read this
 * list, and the order here is the order everything runs and shows them in. Apart from the judges
 * so that what only names checks (the command line, the runner's reports) does not load them and
 * what they read (XML, the sampler).
 */
import type { Variant } from '../exchange.ts';

export interface CheckInfo {
  name: string;
  /** What the check verifies, one line. */
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
const MAIN = ['main'] as const;

export const CHECK_DEFINITIONS = [
  {
    name: 'status',
    title: 'the HTTP status is one the operation declares (its success status on a valid request)',
    abbreviation: 'st',
    variants: BOTH,
  },
  {
    name: 'content-type',
    title: 'the response media type is the declared one',
    abbreviation: 'ct',
    variants: BOTH,
  },
  {
    name: 'envelope',
    title: "the body uses the operation's envelope spelling, never the other",
    abbreviation: 'en',
    variants: BOTH,
  },
  {
    name: 'business-code',
    title: "the body's business code is of the operation's group (success on a valid request)",
    abbreviation: 'bc',
    variants: BOTH,
  },
  {
    name: 'schema',
    title: 'the body validates against the declared schema',
    abbreviation: 'sc',
    variants: BOTH,
  },
  {
    name: 'paging',
    title: 'no more items than the page size asked for',
    abbreviation: 'pg',
    variants: BOTH,
  },
  {
    name: 'auth',
    title:
      'no key and a wrong key are refused with 401 and the wrong-key code; preview needs no key',
    abbreviation: 'au',
    variants: BOTH,
  },
  {
    name: 'negative',
    title: 'invalid parameters and bodies are refused with 400 or the parameter-error code',
    abbreviation: 'ng',
    variants: MAIN,
  },
  {
    name: 'method-path',
    title: 'wrong method -> 405 with Allow; unknown path -> 404; wrong content type -> 415',
    abbreviation: 'mp',
    variants: MAIN,
  },
  {
    name: 'lifecycle',
    title: 'asynchronous submit/poll/result and the upload round trip',
    abbreviation: 'lc',
    variants: MAIN,
  },
  {
    name: 'headers',
    title: 'declared response headers are present (when required) and of their type',
    abbreviation: 'hd',
    variants: BOTH,
  },
  {
    name: 'deprecation',
    title:
      'a deprecated operation sends Deprecation, Sunset and its successor Link; others send none',
    abbreviation: 'dp',
    variants: BOTH,
  },
  {
    name: 'response-time',
    title: 'every response arrives within --max-response-time',
    abbreviation: 'rt',
    variants: BOTH,
  },
  {
    name: 'server-errors',
    title: 'no 5xx and no timeout on any valid or invalid request',
    abbreviation: '5x',
    variants: BOTH,
  },
] as const satisfies readonly CheckInfo[];

export type CheckName = (typeof CHECK_DEFINITIONS)[number]['name'];

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
