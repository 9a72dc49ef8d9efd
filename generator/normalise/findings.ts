/**
 * Findings: what a description gets wrong or leaves unclear, collected while normalising. Unlike
 * Problems (misuse of the project's own `x-dataapi-*` extensions, which stops the run), a finding
 * is repaired or ignored and the run goes on: a description written by others is never a reason
 * to crash.
 */
import type { ModelFindingCode } from '../../model/diagnostics.ts';
import { catalogueSeverity } from '../../model/finding.ts';
import type { ModelFinding } from '../../model/service-model.ts';
import type { LoadedSpec } from '../load.ts';

export class Findings {
  private readonly list: ModelFinding[] = [];
  private readonly seen = new Set<string>();
  /** The operation the findings being added concern (set while an operation is read). */
  operation: string | undefined;

  constructor(private readonly spec: Pick<LoadedSpec, 'file' | 'locate' | 'trace'>) {}

  add(
    code: ModelFindingCode,
    pointer: string,
    message: string,
    operation = this.operation,
    written?: { file?: string; line?: number },
  ): void {
    const key = `${code}\u0000${written?.file ?? ''}\u0000${pointer}\u0000${operation ?? ''}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    // A split description's finding names the file (and line) the author wrote it in; the loader
    // may know it already (`written`: a file a $ref led to, where `pointer` is that file's).
    const at = written?.line !== undefined ? written : this.spec.trace?.(pointer);
    const line = at ? at.line : this.spec.locate(pointer)?.line;
    this.list.push({
      code,
      severity: catalogueSeverity(code),
      message,
      file: at?.file ?? this.spec.file,
      pointer,
      ...(line !== undefined ? { line } : {}),
      ...(operation !== undefined ? { operation } : {}),
    });
  }

  /** Every finding, ordered by pointer, then code (deterministic output). */
  all(): ModelFinding[] {
    return [...this.list].sort(
      (a, b) =>
        (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0) ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
        (a.operation ?? '').localeCompare(b.operation ?? '', 'en'),
    );
  }

  /** Rewrites the placeholder operation keys (pointers) to the allocated ids. */
  renameOperations(idOf: (key: string) => string | undefined): void {
    for (const f of this.list) {
      if (f.operation === undefined) continue;
      const id = idOf(f.operation);
      if (id !== undefined) f.operation = id;
    }
  }
}
