/**
 * A parameter with an `enum` and no `type` (Nexmo's `delivered: {enum: [true, false, 0, 1]}`):
 * Ajv coerces text only under a `type`, and `enum` compares as it is, so the text "true" never
 * equals `true` and every valid request was refused. A text that is no member itself is read as
 * the one non-text member that the suite (and any client) writes as that text.
 */
import { deref, type JsonSchema, type ServiceModel } from 'dataapi/model';

export function enumReading(
  model: ServiceModel,
  schema: JsonSchema | undefined,
): ((value: unknown) => unknown) | undefined {
  const s = deref(model, schema);
  if (typeof s !== 'object' || s === null) return undefined;
  const members = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
  if (!members || members.every((m) => typeof m === 'string')) return undefined;
  const byText = new Map<string, unknown>();
  for (const m of members) {
    if (typeof m === 'string' || (typeof m === 'object' && m !== null)) continue;
    byText.set(m === null ? '' : String(m), m);
  }
  return (value) =>
    typeof value === 'string' && !members.includes(value) && byText.has(value)
      ? byText.get(value)
      : value;
}
