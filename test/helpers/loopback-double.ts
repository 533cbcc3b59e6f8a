import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A failure injected with failNext: the next `remaining` requests to a path prefix answer `status`. */
export interface InjectedFailure {
  status: number;
  remaining: number;
  body?: unknown;
}

/**
 * What every local stand-in for a provider's API shares: a server on a free loopback port, the
 * requests it recorded, and failures injected per path. A double says how it answers (`handle`)
 * and how its provider words an unexpected error.
 */
export abstract class LoopbackDouble<Recorded extends { method: string; path: string }> {
  readonly requests: Recorded[] = [];
  protected readonly failures = new Map<string, InjectedFailure>();
  private server: Server | null = null;
  port = 0;

  protected abstract handle(request: IncomingMessage, response: ServerResponse): Promise<void>;

  /** The body the provider answers a 500 with. */
  protected abstract internalErrorBody(error: unknown): unknown;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify(this.internalErrorBody(error)));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next `times` requests to paths starting with `pathPrefix` are answered with `status`. */
  failNext(pathPrefix: string, status: number, times = 1, body?: unknown): void {
    this.failures.set(pathPrefix, { status, remaining: times, body });
  }

  clear(): void {
    this.requests.length = 0;
    this.failures.clear();
  }

  requestsTo(method: string, pathPattern: RegExp): Recorded[] {
    return this.requests.filter((request) => request.method === method && pathPattern.test(request.path));
  }
}
