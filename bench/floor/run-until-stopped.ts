/** A floor started as a process of its own: stopped on SIGTERM or SIGINT, exits 1 if it could not start. */
export function runUntilStopped(started: Promise<{ close(): Promise<unknown> }>): void {
  started
    .then((server) => {
      const stop = () => void server.close().finally(() => process.exit(0));
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    });
}
