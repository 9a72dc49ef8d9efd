/** A clear, expected failure (unknown operation, unreachable target): message, no stack. */
export class RunError extends Error {
  constructor(
    message: string,
    public exitCode = 1,
  ) {
    super(message);
  }
}
