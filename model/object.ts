/** The one guard for "a plain JSON object" (not null, not an array), and safe writes into one. */

export type Obj = { [key: string]: unknown };

export const isObject = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Sets an own, enumerable property, even one named `__proto__` (plain assignment would set the
 * object's prototype instead and lose a property a description may well have).
 */
export function setOwn(obj: Obj, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
