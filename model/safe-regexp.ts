/**
 * The regular expressions of a description's `pattern`s, as Ajv runs them. A pattern with nested
 * quantifiers (`^([a-z]+)*[0-9]$`, `^(\w+\s?)*$`) backtracks exponentially on a value that almost
 * matches: 41 characters kept a mock's event loop busy for good, so no request got an answer and
 * no timer ran. Such a pattern runs on V8's linear-time engine (the `l` flag) where that engine
 * takes it (no backreferences or lookarounds); every other pattern as Ajv runs it (`u` flag).
 */
import v8 from 'node:v8';
import type { RegExpEngine } from 'ajv/dist/types/index.js';

let linear: boolean | undefined;

/** Whether V8's linear-time engine is available (turned on once, for the `l` flag only). */
function linearEngine(): boolean {
  if (linear === undefined) {
    try {
      v8.setFlagsFromString('--enable-experimental-regexp-engine');
      linear = new RegExp('a', 'l').test('a');
    } catch {
      linear = false;
    }
  }
  return linear;
}

/** Whether `c` at `i` of `source` starts a quantifier that may repeat (`*`, `+`, `{n,}`, `{n,m}`). */
function repeats(source: string, i: number): boolean {
  const c = source[i];
  if (c === '*' || c === '+') return true;
  if (c !== '{') return false;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
  return m !== null && m[2] !== undefined && (m[3] === '' || Number(m[3]) > 1);
}

/**
 * Whether a pattern has a repeated group that itself repeats or alternates (`(a+)+`, `(a|aa)*`):
 * the shape of exponential backtracking. A scan of the source (escapes and classes skipped).
 */
export function mayBacktrack(source: string): boolean {
  // For each open group: whether something inside it repeats or alternates.
  const open: boolean[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      if (repeats(source, i + 1) && open.length > 0) open[open.length - 1] = true;
    } else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
      if (repeats(source, i + 1) && open.length > 0) open[open.length - 1] = true;
    } else if (c === '(') open.push(false);
    else if (c === ')') {
      const inner = open.pop() ?? false;
      if (inner && repeats(source, i + 1)) return true;
      if (open.length > 0 && (inner || repeats(source, i + 1))) open[open.length - 1] = true;
    } else if (c === '|' && open.length > 0) open[open.length - 1] = true;
    else if (repeats(source, i) && open.length > 0) open[open.length - 1] = true;
  }
  return false;
}

/** Ajv's `code.regExp`: the linear-time engine for a pattern that may backtrack without end. */
export const safeRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const usual = new RegExp(pattern, flags); // an invalid pattern throws as Ajv's own would
    if (!mayBacktrack(pattern) || !linearEngine()) return usual;
    try {
      return new RegExp(pattern, `${flags.replace('u', '')}l`);
    } catch {
      return usual; // a backreference or lookaround: the linear engine cannot run it
    }
  },
  // Ajv writes this into standalone code only; its validators here call the function itself.
  { code: 'new RegExp' },
);
