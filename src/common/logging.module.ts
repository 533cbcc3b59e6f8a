import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { AppLogger } from './app-logger';
import pino from 'pino';
import { appConfig } from '../config/app.config';
import { LOG_DESTINATION, LOG_REDACT_PATHS, LogDestination, redactError, redactRequest } from './security/log-redaction';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one; echoes it on the response. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
  response.setHeader('X-Request-Id', id);
  return id;
}

/** Structured JSON logs (pino), one line per request, credentials never written. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY, LOG_DESTINATION],
      providers: [{ provide: LOG_DESTINATION, useValue: null }],
      useFactory: (config: ConfigType<typeof appConfig>, destination: LogDestination) => {
        const options = {
          level: config.logLevel,
          genReqId: assignRequestId,
          // Secrets in headers, query strings and failed queries (security/log-redaction.ts).
          redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
          // The response's status is what a request line needs; its headers (security headers on
          // every response) tripled the size of each line.
          serializers: {
            req: redactRequest,
            res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
            err: redactError,
          },
          customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
            error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
        };
        // Standard output written from libuv's threads rather than by a blocking write per line: a
        // line per request cost a tenth of the CPU of a simple read. pino flushes it when the
        // process exits.
        const output = destination ?? pino.destination({ dest: 1, sync: false });
        return { forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }], pinoHttp: [options, output] };
      },
    }),
  ],
  providers: [AppLogger],
  exports: [AppLogger],
})
export class LoggingModule {}
