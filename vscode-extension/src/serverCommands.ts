// The running server as the extension's parts use it: BeagleClient (client.ts) implements it;
// the commands and the results and diagram panels send their requests through it, and the unit
// tests fake it. Its own module so that none of those imports another just for this.

/** Sends workspace/executeCommand to the running server. */
export interface ServerCommands {
  execute<T = unknown>(command: string, args: unknown[]): Promise<T>;
}
