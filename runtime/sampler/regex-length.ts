/**
 * Lengths (in code points) a RegExp source needs. fast-check's `stringMatching` with a
 * `maxLength` below them either throws (a `{32}` clamped under its minimum) or filters for ever
 * (a literal longer than the cap): the sampler sizes its cap from these (corpus: AWS ARNs of 50 to
 * 80 characters under a cap of 24 or 64, every draw an invalid word). Backreferences count 0.
 */

/** The length of the shortest string the source matches. */
export function minMatchLength(source: string): number {
  return new Reader(source, 'least').alternation();
}

/**
 * The length fast-check's clamping needs to build the source at all: every optional part and
 * every branch fits (it clamps an optional `(/imageset/[0-9a-z]{32})?` before it drops it, and
 * an allowance under the `{32}` throws).
 */
export function clampRoom(source: string): number {
  return new Reader(source, 'room').alternation();
}

class Reader {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly mode: 'least' | 'room',
  ) {}

  /** Branches separated by `|` up to a `)` or the end: the shortest (the longest, for room). */
  alternation(): number {
    let best = this.sequence();
    while (this.s[this.i] === '|') {
      this.i++;
      const next = this.sequence();
      best = this.mode === 'least' ? Math.min(best, next) : Math.max(best, next);
    }
    return best;
  }

  private sequence(): number {
    let total = 0;
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      const atom = this.atom();
      total += atom * this.quantifier();
    }
    return total;
  }

  private atom(): number {
    const c = this.s[this.i++] as string;
    if (c === '^' || c === '$') return 0;
    if (c === '[') {
      this.i = classEnd(this.s, this.i - 1) + 1;
      return 1;
    }
    if (c === '\\') return this.escape();
    if (c === '(') {
      const look = /^\?(?:[=!]|<[=!])/.test(this.s.slice(this.i));
      const named = /^\?<[^>]*>|^\?:/.exec(this.s.slice(this.i));
      if (named && !look) this.i += named[0].length;
      const inner = this.alternation();
      if (this.s[this.i] === ')') this.i++;
      return look ? 0 : inner;
    }
    // Any other character (a code point, so a surrogate pair is one).
    const cp = this.s.codePointAt(this.i - 1) ?? 0;
    if (cp > 0xffff) this.i++;
    return 1;
  }

  private escape(): number {
    const c = this.s[this.i++] ?? '';
    if (c === 'b' || c === 'B') return 0;
    if (/[1-9]/.test(c)) {
      while (/[0-9]/.test(this.s[this.i] ?? '')) this.i++;
      return 0;
    }
    if (c === 'k' && this.s[this.i] === '<') {
      this.i = this.s.indexOf('>', this.i) + 1 || this.s.length;
      return 0;
    }
    const skip =
      /^(?:u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|[pP]\{[^}]*\})/.exec(
        this.s.slice(this.i - 1),
      );
    if (skip) this.i += skip[0].length - 1;
    return 1;
  }

  /** The least number of repetitions the quantifier after an atom asks for (1 without one). */
  private quantifier(): number {
    const c = this.s[this.i];
    let least = 1;
    if (c === '*' || c === '?') {
      this.i++;
      least = 0;
    } else if (c === '+') this.i++;
    else if (c === '{') {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(this.s.slice(this.i));
      if (!m) return 1; // a literal `{` (not unicode mode): the next atom reads it
      this.i += m[0].length;
      least = Number(m[1]);
    } else return 1;
    if (this.s[this.i] === '?') this.i++; // lazy
    return this.mode === 'room' ? Math.max(1, least) : least;
  }
}

/** The index of the `]` that closes the character class opened at `start`. */
export function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length - 1;
}
