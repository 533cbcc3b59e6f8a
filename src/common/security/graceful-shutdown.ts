import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/**
 * Lets SIGTERM finish under keep-alive load. Nest closes the listener and waits for open
 * connections, but a client that keeps a connection alive and sends request after request would
 * hold the service up forever, and be cut off by the orchestrator's SIGKILL mid-request. From the
 * first shutdown hook on, every response closes its connection (`Connection: close`) and idle
 * connections are closed at once: what is in flight completes, the client reconnects elsewhere,
 * and the database pool is closed only after the last response (TypeORM closes it on application
 * shutdown, after the HTTP server).
 */
@Injectable()
export class GracefulShutdown implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Shutdown');
  private draining = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get isDraining(): boolean {
    return this.draining;
  }

  onApplicationBootstrap(): void {
    const server = this.httpServer();
    // Before the application's own listener, so that the header is set whatever it answers.
    server?.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.draining && !response.headersSent) response.setHeader('Connection', 'close');
    });
  }

  onModuleDestroy(): void {
    this.draining = true;
    const server = this.httpServer();
    if (!server?.listening) return;
    this.logger.log('shutting down: finishing requests in flight, closing kept-alive connections');
    server.closeIdleConnections();
  }

  private httpServer(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }
}
