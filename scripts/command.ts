/** What each `dataapi` command (scripts/commands/*.ts) exports as `command`. */
export interface Command {
  usage: string;
  run(argv: string[]): Promise<number>;
}
