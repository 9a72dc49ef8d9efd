/** A bad flag, file or argument: the command prints the message and exits 2. */
export class UsageError extends Error {}
