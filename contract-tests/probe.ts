/** A request the suite sent and what came back, with what it was for: what the checks judge. */
import type { Operation } from 'dataapi/model';
import type { FuzzFinding, FuzzStats } from './fuzz/types.ts';
import type { Exchange } from './http.ts';
import type { NegativeCase } from './negatives.ts';
import type { RequestSpec } from './requests.ts';
import type { Variant } from './exchange.ts';
import type { DescriptionWarning } from './warnings.ts';

export type Role =
  | 'valid'
  | 'paging'
  | 'no-key'
  | 'wrong-key'
  | 'negative'
  | 'wrong-method'
  | 'unknown-path'
  | 'wrong-content-type'
  | 'lifecycle';

export interface Probe {
  role: Role;
  /** The operation the request was sent to (a sequence follows links to other operations). */
  op: Operation;
  exchange: Exchange;
  /** The request's values (before the key and serialisation), for links and file names. */
  spec?: RequestSpec;
  negative?: NegativeCase;
  /** Page size asked for (paging probes and valid requests that carry one). */
  pageSize?: number;
  /** The request used an example id the target may not know (404 is then acceptable). */
  uncertain?: boolean;
  /**
   * A path value of the request was made up by the suite (no operation gave it): a 404 on a
   * valid request is then missing test data, not a failure.
   */
  invented?: boolean;
  /** A schema of the request admits no value the sampler finds (RequestSpec.unsatisfied). */
  unsatisfied?: { pointer: string; why: string };
  /** Method sent on a wrong-method probe. */
  method?: string;
  /** Sent to another operation for test data (its list or its create: test-data.ts). */
  testData?: boolean;
  /** A request fuzzing generated (its failures are rechecked against the description). */
  generated?: boolean;
  /** Set on a generated request (--fuzz) that failed: seed, shrinking, replay. */
  fuzz?: FuzzFinding;
}

export interface ProbeSet {
  variant: Variant;
  probes: Probe[];
  /** Problems found while following links (sequences.ts); empty when they passed. */
  lifecycle?: { ran: boolean; problems: string[]; note: string; probe?: Probe };
  /** What building the requests found wrong with the description (invalid examples). */
  warnings?: DescriptionWarning[];
  /** What fuzzing sent and exercised (--fuzz). */
  fuzz?: FuzzStats;
}

export function ok(p: Probe): boolean {
  const s = p.exchange.record.status;
  return s !== undefined && s >= 200 && s < 300;
}
