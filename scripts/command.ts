/** What each `dataapi` command (scripts/commands/*.ts) exports as `command`. */
export interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}
