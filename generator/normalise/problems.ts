/** Collects problems found while normalising, so a run reports them all at once. */
import { SpecError, type LoadedSpec, type SpecProblem } from '../load.ts';

export class Problems {
  readonly list: SpecProblem[] = [];
  constructor(private readonly spec: Pick<LoadedSpec, 'file' | 'locate' | 'trace'>) {}

  add(pointer: string, message: string): void {
    const at = this.spec.trace?.(pointer);
    const pos = at ?? this.spec.locate(pointer);
    this.list.push({
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
