/** Why a pack failed: exit 1 for a client that cannot be built, exit 2 for bad input. */

/** The client could not be built (it does not type-check, or would carry what it must not). */
export class PackError extends Error {}

/** Bad input to the pack: a package name or version npm refuses, an --out that is not ours. */
export class PackInputError extends PackError {}
