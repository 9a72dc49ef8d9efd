/**
 * Operations' requests overlapped within one worker. When the worker knows the order of its
 * files (run-order.ts), every operation's probe set is registered here in that order, and while
 * the tests of one operation check its answers the next operations' requests are under way. An
 * operation's own requests are paced per operation (its rate-limit windows), so a worker running
 * one operation at a time spent most of a run waiting on windows (GitHub's 1,223 operations:
 * about 500 s for 150 s of CPU).
 */

/** One registered piece of work; `get` starts it if the window has not already. */
export interface Prefetched<T> {
  get(): Promise<T>;
}

interface Entry<T> {
  start: () => Promise<T>;
  promise?: Promise<T>;
}

/** Starts registered work in order, at most `limit` at a time (one more when a test needs it now). */
export class Prefetcher<T> {
  private entries: Entry<T>[] = [];
  private byKey = new Map<string, Prefetched<T>>();
  private next = 0;
  private running = 0;

  constructor(private limit: number) {}

  /** Registers work under a key (the first registration of a key is kept). */
  add(key: string, start: () => Promise<T>): Prefetched<T> {
    const known = this.byKey.get(key);
    if (known) return known;
    const entry: Entry<T> = { start };
    this.entries.push(entry);
    const handle = { get: () => this.startEntry(entry) };
    this.byKey.set(key, handle);
    return handle;
  }

  /** The entry's work, started now if it has not been; then the window is refilled. */
  private startEntry(entry: Entry<T>): Promise<T> {
    const promise = this.launch(entry);
    this.pump();
    return promise;
  }

  private launch(entry: Entry<T>): Promise<T> {
    if (entry.promise) return entry.promise;
    this.running++;
    const promise = entry.start();
    entry.promise = promise;
    const done = () => {
      this.running--;
      this.pump();
    };
    // A prefetched set that fails is reported by the test that awaits it, not as unhandled.
    promise.then(done, done);
    return promise;
  }

  private pump(): void {
    while (this.running < this.limit && this.next < this.entries.length) {
      const entry = this.entries[this.next++]!;
      if (!entry.promise) this.launch(entry);
    }
  }
}
