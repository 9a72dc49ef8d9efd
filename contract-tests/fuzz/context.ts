/**
 * What one operation's fuzz carries from request to request (run.ts builds it; send.ts and
 * record.ts use it), and the limits every part holds to. Its own module so that the parts need
 * not import run.ts, which imports them.
 */
import type { Operation, ServiceModel } from 'dataapi/model';
import type { Transport } from '../http.ts';
import type { NegativeCase } from '../negatives.ts';
import type { Probe, ProbeSet } from '../probe.ts';
import type { RequestSpec } from '../requests.ts';
import type { DescriptionWarning } from '../warnings.ts';
import type { Failure } from './judge.ts';
import type { FuzzTally } from './tally.ts';
import type { FuzzConfig, FuzzKind, FuzzStats } from './types.ts';

export const MAX_SHRINK_REQUESTS = 100;
/** Requests the last pass (simplify.ts) may spend on a failure. */
export const MAX_SIMPLIFY_REQUESTS = 40;
export const MAX_FINDINGS = 3;

export interface Attempt {
  /** The request that failed (the follow-up's for a link) and its failures. */
  probe: Probe;
  failures: Failure[];
  spec: RequestSpec;
  label: string;
  negative?: NegativeCase;
  /** Requests the last simplifying pass spent. */
  shrinks?: number;
  link?: { name: string; target: string; request: RequestSpec; problem: string };
}

export interface FuzzContext {
  model: ServiceModel;
  op: Operation;
  t: Transport;
  set: ProbeSet;
  fuzz: FuzzConfig;
  stats: FuzzStats;
  tally: FuzzTally;
  warnings: DescriptionWarning[];
  found: { attempt: Attempt; kind: FuzzKind; run: number; shrinks: number }[];
  /** Generated requests the recheck found were not what they were meant to be (toolkit faults). */
  faults: Probe[];
  known: Set<string>;
}
