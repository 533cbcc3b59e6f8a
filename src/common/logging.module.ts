import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { AppLogger } from './app-logger';
import pino, { stdSerializers, type DestinationStream, type Logger } from 'pino';
import { appConfig } from '../config/app.config';
import { LOG_DESTINATION, LOG_REDACT_PATHS, LogDestination, redactError, redactRequest } from './security/log-redaction';
import { requestLogMiddleware } from './request-log';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one; echoes it on the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** The process's root logger and where its lines go: app logs write through it, the request log beside it. */
export interface RootLogger {
  logger: Logger;
  output: DestinationStream;
}

const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** Standard output is written in chunks of at least this many bytes, and at least this often. */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 250;

function createRootLogger(config: ConfigType<typeof appConfig>, destination: LogDestination): RootLogger {
  // Standard output written from libuv's threads rather than by a blocking write per line: a
  // line per request cost a tenth of the CPU of a simple read. And in writes of at least 4 KB (about
  // seven request lines), flushed at least every 250 ms: one write per line was 8 % of the CPU of a
  // 304 under load. pino flushes what is left when the process exits.
  const output = destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS });
  const logger = pino(
    {
      level: config.logLevel,
      // Secrets in headers, query strings and failed queries (security/log-redaction.ts).
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      // The request as pino's standard serializer shows it, then redacted; of the response, its status
      // (its headers, security headers on every response, tripled the size of each line).
      serializers: {
        req: stdSerializers.wrapRequestSerializer(redactRequest as unknown as (request: pino.SerializedRequest) => pino.SerializedRequest),
        res: stdSerializers.wrapResponseSerializer((response: { statusCode: number }) => ({ statusCode: response.statusCode })),
        err: stdSerializers.wrapErrorSerializer(redactError as (error: pino.SerializedError) => pino.SerializedError),
      },
    },
    output,
  );
  return { logger, output };
}

@Module({
  providers: [
    { provide: LOG_DESTINATION, useValue: null },
    { provide: ROOT_LOGGER, inject: [appConfig.KEY, LOG_DESTINATION], useFactory: createRootLogger },
  ],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

/**
 * Structured JSON logs (pino), credentials never written: nestjs-pino's logger for the app's own
 * lines (with the request they were written during), and one line per request (request-log.ts).
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      // The existing root logger, and no middleware of nestjs-pino's: the request log below opens the request's store.
      useFactory: (root: RootLogger) => ({ pinoHttp: { logger: root.logger }, useExisting: true, forRoutes: [] }),
    }),
  ],
  providers: [AppLogger],
  exports: [AppLogger],
})
export class LoggingModule implements NestModule {
  constructor(@Inject(ROOT_LOGGER) private readonly root: RootLogger) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(requestLogMiddleware(this.root.logger, this.root.output, assignRequestId))
      .forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
