/**
 * The findings of one check of traffic (or of the requests no operation documents), bounded: a
 * soak run full of failures must not grow without end (issue 49), so the first records are kept
 * whole and the rest only counted. Every finding is counted; the reports say how many were not
 * kept.
 */
import type { Finding } from 'dataapi/model';

/** Finding records kept per operation, variant and check (as many as failing exchanges). */
export const KEPT_FINDINGS = 200;

export class KeptFindings {
  readonly kept: Finding[] = [];
  /** Findings counted but not kept. */
  notKept = 0;
  /** Failures among all the findings, kept or not. */
  failures = 0;

  add(f: Finding): void {
    if (f.severity === 'failure') this.failures++;
    // The first failure is kept even past the bound: a failed check's report starts from it.
    const first = f.severity === 'failure' && this.failures === 1;
    if (this.kept.length < KEPT_FINDINGS || first) this.kept.push(f);
    else this.notKept++;
  }
}
