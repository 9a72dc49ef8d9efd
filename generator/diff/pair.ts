/** One pair of operations under comparison, and how its changes are reported. */
import type { Operation } from '../../model/types.ts';
import type { RuleId } from './rules.ts';
import type { DiffSide } from './side.ts';
import type { Side } from './types.ts';
import type { Direction, SchemaContext } from './walk-context.ts';

export type OperationEmit = (
  rule: RuleId,
  side: Side,
  pointer: string | undefined,
  message: string,
) => void;

export interface OperationPair {
  base: DiffSide;
  head: DiffSide;
  b: Operation;
  h: Operation;
  emit: OperationEmit;
  /** The schema comparison context for a direction (shared `seen` set per operation). */
  schemas(dir: Direction): SchemaContext;
}
