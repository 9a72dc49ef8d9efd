/**
 * Run-wide judgement of how the target answers, so that a hostile or broken target cannot make a
 * QA run last for hours:
 * - a 429 circuit breaker: once the target has answered 429 to MANY_429 requests in a row (no other
 *   answer in between, whatever the operation), it is refusing everything: no request is retried
 *   any more, and each further 429 is reported as it comes;
 * - a retry budget: at most `retryBudget` 429 retries in the whole run, breaker or not;
 * - a per-route timeout breaker: after `timeoutsInARow` requests to one route (a path: an
 *   operation, or its /demo variant) went unanswered, and it never answered at all (a route that
 *   answered once is slow at worst, and keeps being tested), its remaining requests are not sent (that
 *   operation fails with its timeouts; the others are tested as usual: one slow route does not
 *   condemn the target).
 */

/** What became of one request, as far as the breakers care. */
export interface Outcome {
  /** HTTP status, when an answer came. */
  status?: number;
  /** No answer within the per-request timeout. */
  timedOut?: boolean;
  /** The route (path without query) the request went to: timeouts are counted per route. */
  route?: string;
}

export interface BreakerOptions {
  /** 429 answers in a row (run-wide) that open the breaker (default 10). */
  many429?: number;
  /** 429 retries allowed in the whole run (default 100). */
  retryBudget?: number;
  /** Unanswered requests in a row that close one route (default 3). */
  timeoutsInARow?: number;
}

export class Breakers {
  private in429 = 0;
  private retries = 0;
  private open429 = false;
  private timeouts = new Map<string, number>();
  /** Routes that answered at least once: they are slow at worst, not silent. */
  private answered = new Set<string>();
  private readonly many429: number;
  private readonly retryBudget: number;
  private readonly timeoutsInARow: number;

  constructor(o: BreakerOptions = {}) {
    this.many429 = o.many429 ?? 10;
    this.retryBudget = o.retryBudget ?? 100;
    this.timeoutsInARow = o.timeoutsInARow ?? 3;
  }

  observe(key: string, outcome: Outcome): void {
    const route = outcome.route ?? key;
    if (outcome.timedOut) this.timeouts.set(route, (this.timeouts.get(route) ?? 0) + 1);
    else if (outcome.status !== undefined) {
      this.timeouts.delete(route);
      this.answered.add(route);
    }
    if (outcome.status === 429) {
      if (++this.in429 >= this.many429) this.open429 = true;
    } else if (outcome.status !== undefined) this.in429 = 0;
  }

  /** Whether a 429 may be retried (uses one retry of the budget when it may). */
  mayRetry(): boolean {
    if (this.open429 || this.retries >= this.retryBudget) return false;
    this.retries++;
    return true;
  }

  /** Why a request to this route is not sent, or undefined when it may be. */
  refusal(route: string): string | undefined {
    const n = this.timeouts.get(route) ?? 0;
    return n >= this.timeoutsInARow && !this.answered.has(route)
      ? `not sent: the last ${n} requests to ${route} got no answer within the timeout`
      : undefined;
  }

  /** What the breakers did, for the run's report (empty when nothing tripped). */
  notes(): string[] {
    const out: string[] = [];
    if (this.open429)
      out.push(
        `the target answered HTTP 429 to ${this.many429} requests in a row and nothing else: it refuses every request, so no 429 was retried after that (${this.retries} retries before)`,
      );
    else if (this.retries >= this.retryBudget)
      out.push(
        `the run's budget of ${this.retryBudget} retries after HTTP 429 was used up: later 429 answers were not retried`,
      );
    return out;
  }
}
