/**
 * The proxy's upstream timeouts: every exchange waits the same time for its answer, so their
 * deadlines come in the order the exchanges do, and one timer for the earliest serves them all.
 * A timer per exchange, set and cleared within a millisecond, cost the forwarding thread more:
 * with few exchanges open, node's list for that duration empties and is made again each time.
 */
export interface Deadline {
  /** Called once the time is up, unless cleared before. */
  expired: (() => void) | undefined;
  at: number;
}

export class Deadlines {
  private queue: Deadline[] = [];
  private first = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private ms: number) {}

  /** Calls `expired` in `ms` unless the returned deadline is cleared first. */
  add(expired: () => void): Deadline {
    const d: Deadline = { expired, at: performance.now() + this.ms };
    // Answers mostly come in order: what was answered at the front goes now.
    while (this.first < this.queue.length && this.queue[this.first]!.expired === undefined)
      this.first++;
    this.compact();
    this.queue.push(d);
    if (this.timer === undefined) this.arm(d.at);
    return d;
  }

  /** The answer came: the deadline lets go of what it held. */
  static clear(d: Deadline): void {
    d.expired = undefined;
  }

  /** Spent entries are dropped in bulk, not one shift at a time. */
  private compact(): void {
    if (this.first === this.queue.length) {
      this.queue.length = 0;
      this.first = 0;
    } else if (this.first > 1024 && this.first * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.first);
      this.first = 0;
    }
  }

  private arm(at: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - performance.now()));
    // Waiting for a deadline must not keep a stopped proxy's process alive.
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    const q = this.queue;
    while (this.first < q.length) {
      const d = q[this.first]!;
      if (d.expired !== undefined && d.at > now) break;
      this.first++;
      const expired = d.expired;
      d.expired = undefined;
      expired?.();
    }
    this.compact();
    const next = this.queue[this.first];
    if (next && this.timer === undefined) this.arm(next.at);
  }
}
