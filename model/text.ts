/** Text for messages (no dependencies: the packed client uses it too). */
/** Short, single-line excerpt of a value for messages. */
export function excerpt(value: unknown, max = 120): string {
  let text: string;
  try {
    text =
      typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
