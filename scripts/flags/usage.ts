/** The flags section of a usage text, written from the command's flag table. */
import type { Flag, FlagTable } from './declare.ts';

const WIDTH = 100;
/** A longer flag (with its value's name) gets a line of its own, its help below it. */
const LONGEST_BESIDE = 25;

const label = (name: string, flag: Flag) => `--${name}${flag.arg ? ` ${flag.arg}` : ''}`;

/** What `default:` says, if anything: a boolean or a list goes without saying. */
function shownDefault(flag: Flag): string | undefined {
  if (flag.shown === false) return undefined;
  if (flag.shown !== undefined) return flag.shown;
  return typeof flag.default === 'string' ? flag.default : undefined;
}

/**
 * One line per flag (its help's continuation lines under the first), the help at one column for
 * the whole table and `default: X` at another, as the hand-written texts were laid out.
 */
export function flagLines(
  table: FlagTable,
  /** Positional words described before the flags, at the same column (`DIR...`). */
  positionals: Record<string, string> = {},
): string {
  const rows: [string, Flag][] = [
    ...Object.entries(positionals).map(([word, help]): [string, Flag] => [
      word,
      { type: 'string', help },
    ]),
    ...Object.entries(table).map(([name, flag]): [string, Flag] => [label(name, flag), flag]),
  ];
  const labels = rows.map(([l]) => l);
  const beside = labels.filter((l) => l.length <= LONGEST_BESIDE);
  const column = 2 + Math.max(0, ...beside.map((l) => l.length)) + 2;
  const defaultColumn = column + 44;
  const out: string[] = [];
  for (const [text, flag] of rows) {
    const head = `  ${text}`;
    const lines = flag.help.split('\n');
    if (head.length + 1 > column) out.push(head);
    else lines[0] = `${head.padEnd(column)}${lines[0]}`;
    const first = head.length + 1 > column ? 0 : 1;
    for (let i = first; i < lines.length; i++) lines[i] = `${' '.repeat(column)}${lines[i]}`;
    const shown = shownDefault(flag);
    if (shown !== undefined) {
      const text = `default: ${shown}`;
      const last = lines[lines.length - 1]!;
      if (last.length + 2 <= defaultColumn && defaultColumn + text.length <= WIDTH)
        lines[lines.length - 1] = `${last.padEnd(defaultColumn)}${text}`;
      else if (last.length + 2 + text.length <= WIDTH && last.length + 2 > defaultColumn)
        lines[lines.length - 1] = `${last}  ${text}`;
      else lines.push(`${' '.repeat(Math.min(defaultColumn, WIDTH - text.length))}${text}`);
    }
    out.push(...lines);
  }
  return out.join('\n');
}
