/**
 * `--severity CODE=LEVEL,...` (and `contract.severity: { CODE: LEVEL }` in the configuration file,
 * which arrives here as the same words): a check's or a description warning's severity for this
 * run. A check set to off does not run; a warning set to off is not listed.
 */
import {
  SEVERITY_SETTINGS,
  settableCodes,
  type SeveritySetting,
  type SeveritySettings,
} from '../model/diagnostics.ts';
import { didYouMean } from '../model/suggest.ts';
import { UsageError } from './args-error.ts';

export const SEVERITY_HELP =
  '--severity CODE=LEVEL,...  a check or a description warning at another severity: failure, warning or off (method-path=warning, undeclared-content=failure; a check set to off does not run). --strict still makes every warning fail the run';

/** The settings the words give, each code and level checked (exit 2 with the closest name). */
export function parseSeverity(words: readonly string[] | undefined): SeveritySettings | undefined {
  if (!words || words.length === 0) return undefined;
  const codes = settableCodes();
  const out: Record<string, SeveritySetting> = {};
  for (const pair of words.flatMap((w) => w.split(',')).map((w) => w.trim())) {
    if (pair === '') continue;
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(pair);
    if (!m)
      throw new UsageError(
        `--severity takes CODE=LEVEL (method-path=warning), got ${JSON.stringify(pair)}`,
      );
    const [, code, level] = m as unknown as [string, string, string];
    if (!codes.includes(code))
      throw new UsageError(
        `--severity: ${JSON.stringify(code)} is not a check or a warning code${didYouMean(code, codes)} (docs/diagnostics.md lists them)`,
      );
    if (!(SEVERITY_SETTINGS as readonly string[]).includes(level))
      throw new UsageError(
        `--severity: ${code} can be set to ${SEVERITY_SETTINGS.join(', ')}, not ${JSON.stringify(level)}`,
      );
    out[code] = level as SeveritySetting;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The checks a setting turns off (they do not run at all). */
export const checksOff = (settings: SeveritySettings | undefined, checks: readonly string[]) =>
  checks.filter((c) => settings?.[c] === 'off');
