/**
 * What loading and normalising found about the description (the model's findings: codes of the
 * diagnostics catalogue), said where a user first runs the toolkit: `generate` and `lint` print
 * a count and the first few, `--verbose` all of them. `contract` reports them as warnings.
 */
import type { Finding } from 'dataapi/model';

/** Shown without --verbose. */
export const FIRST_FEW = 5;

/** The lines to print (empty when the description gave no finding). */
export function describeFindings(
  command: string,
  findings: readonly Finding[],
  verbose: boolean,
): string {
  if (findings.length === 0) return '';
  const shown = verbose ? findings : findings.slice(0, FIRST_FEW);
  const lines = shown.map(
    (f) =>
      `  ${f.code} at ${f.pointer || '#'} (${f.file}${f.line !== undefined ? `:${f.line}` : ''}): ${f.message.replace(/\s*\n\s*/g, ' ')}`,
  );
  const rest = findings.length - shown.length;
  return [
    `dataapi ${command}: ${findings.length} finding${findings.length === 1 ? '' : 's'} about the description (warnings; each code in docs/diagnostics.md):`,
    ...lines,
    ...(rest > 0 ? [`  ... and ${rest} more: --verbose lists them all`] : []),
    '',
  ].join('\n');
}
