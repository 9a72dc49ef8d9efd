/** Collects problems found while normalising, so a run reports them all at once. */
import type { LintRuleId } from '../../model/diagnostics.ts';
import { SpecError, type LoadedSpec, type SpecProblem } from '../load.ts';

/**
 * The code of a normaliser's problem: `spec-extension` for a malformed x-dataapi-* extension, or
 * the lint rule it breaks where one says more (a life-cycle extension: deprecation-sunset,
 * deprecation-successor). generate refuses them all; lint reports each under its code.
 */
export type ProblemCode = 'spec-extension' | LintRuleId;

/** A problem of the normaliser, with its code. */
export type Problem = SpecProblem & { code: ProblemCode };

export class Problems {
  readonly list: Problem[] = [];
  constructor(private readonly spec: Pick<LoadedSpec, 'file' | 'locate' | 'trace'>) {}

  add(code: ProblemCode, pointer: string, message: string): void {
    const at = this.spec.trace?.(pointer);
    const pos = at ?? this.spec.locate(pointer);
    this.list.push({
      code,
      pointer,
      message,
      line: pos?.line,
      column: pos?.column,
      ...(at?.file !== undefined ? { file: at.file } : {}),
    });
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new SpecError(this.spec.file, this.list, 'spec-extension');
  }
}
