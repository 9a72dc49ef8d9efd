/**
 * What property-based fuzzing (`dataapi contract --fuzz N [--seed S]`) records: the settings the
 * runner hands to the workers, each failure shrunk to a minimal request with what replays it, and
 * per operation what was sent and exercised (coverage of enum values, presence, boundary values).
 */
import type { SavedRequest } from '../requests.ts';

export type { FuzzConfig } from '../config.ts';

export type FuzzKind = 'valid' | 'invalid' | 'link';

/** A request as it went on the wire, the key replaced by `***`. */
export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON, form or text body. */
  body?: string;
  /** Multipart parts: a field's text, or a file's name and media type. */
  parts?: { name: string; value?: string; file?: string; type?: string }[];
}

/** A failure fuzzing found, shrunk to a minimal request. */
export interface FuzzFinding {
  /** The run's --seed and --fuzz. */
  seed: number;
  runs: number;
  operation: string;
  kind: FuzzKind;
  /** The generated run (1-based, of its kind) that failed first. */
  run: number;
  /** Requests spent shrinking it. */
  shrinks: number;
  /** The minimal request: values by location, before the key and serialisation. */
  request: SavedRequest;
  /** For an invalid request: its one violation (`query value=751 (above maximum 750)`), where, what kind. */
  violation?: { label: string; target: string; kind: string };
  /** For kind `link`: the link followed from the answer to `request`, and the request it led to. */
  link?: { name: string; target: string; request: SavedRequest };
  /** The failing request on the wire (the follow-up's, for a link). */
  wire: WireRequest;
  /** The same request as a curl command; the key read from $DATAAPI_APPKEY. */
  curl: string;
  /** Set by the runner: the replay file and the command lines that reproduce the failure. */
  replay?: { file?: string; command?: string; seedCommand: string };
}

/** Per declared field (`query.lang`, `body.score`): what the generated valid requests carried. */
export interface FuzzCoverageData {
  /** Requests that carried the field and that left it out. */
  presence: Record<string, { required: boolean; present: number; absent: number }>;
  /** Declared enum values and those sent. */
  enums: Record<string, { declared: unknown[]; sent: unknown[] }>;
  /** Boundary values (`minimum 0`, `maximum 750`, `maxLength 64`, `above maximum 751`) and those sent. */
  boundaries: Record<string, { declared: string[]; hit: string[] }>;
}

/** What fuzzing did for one operation (main variant). */
export interface FuzzStats {
  /** The operation's own seed (from the run's seed and the operation id). */
  seed: number;
  /** Generated requests sent, by kind (shrinking not counted). */
  runs: { valid: number; invalid: number; link: number };
  /** Every request fuzzing sent, shrinking included. */
  requests: number;
  /** Requests spent shrinking failures. */
  shrinkRequests: number;
  /** Generated values left out (not valid for their schema, not sendable, another template's URL). */
  discarded: number;
  findings: number;
  /** Why fuzzing stopped before its runs (the request budget, a route that stopped answering). */
  stopped?: string;
  coverage: FuzzCoverageData;
}

/** What a run's results hold about fuzzing (ContractRunResult.fuzz). */
export interface FuzzRunSummary {
  seed: number;
  runs: number;
  /** Whether the seed was chosen by the run (no --seed given). */
  seedChosen: boolean;
  /** Per operation id (main variant). */
  operations: Record<string, FuzzStats>;
}
