/**
 * Where a place of the bundled document came from, once the loader has moved schemas and
 * parameters into components (load-hoist*.ts): a warning or an error about a moved schema is
 * located where the author wrote it, not at `#/components`, where the author wrote nothing.
 */
export class Origins {
  /** Home of a moved object -> the pointer it had before (plain JSON pointers). */
  private readonly from = new Map<string, string>();

  /** Records one move (the hoisting's `onMove`). */
  readonly moved = (home: string, from: string): void => {
    this.from.set(home, from);
  };

  get size(): number {
    return this.from.size;
  }

  /** `pointer` as it was before every move (an object may have moved more than once). */
  source(pointer: string): string {
    for (let hops = 0; hops <= this.from.size; hops++) {
      const next = this.step(pointer);
      if (next === undefined) return pointer;
      pointer = next;
    }
    return pointer;
  }

  /** The pointer with its longest moved prefix put back, or undefined when none moved. */
  private step(pointer: string): string | undefined {
    for (let i = pointer.length; i > 0; i = pointer.lastIndexOf('/', i - 1)) {
      const origin = this.from.get(pointer.slice(0, i));
      if (origin !== undefined) return origin + pointer.slice(i);
    }
    return undefined;
  }
}
