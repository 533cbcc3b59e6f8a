import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express, { type Application } from 'express';
import pino, { stdSerializers } from 'pino';
import { pinoHttp } from 'pino-http';
import { requestLogMiddleware } from './request-log';
import { LOG_REDACT_PATHS, redactError, redactRequest } from './security/log-redaction';

/** Lines written to a stream, parsed, without what differs between two runs (times, ports, stacks). */
function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const entry = JSON.parse(line) as Record<string, unknown> & { req?: Record<string, unknown>; err?: Record<string, unknown> };
        delete entry.time;
        delete entry.responseTime;
        delete entry.pid;
        if (entry.req) delete entry.req.remotePort;
        if (entry.err) delete entry.err.stack;
        return entry;
      });
  return { stream, lines };
}

const options = {
  level: 'info',
  redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
};

let ids = 0;
const nextId = (_request: IncomingMessage, response: ServerResponse) => {
  const id = `id-${(ids += 1)}`;
  response.setHeader('X-Request-Id', id);
  return id;
};

/** The app both loggers sit in front of: a route with parameters, a 404 and a 500. */
function appWith(logger: express.RequestHandler): Application {
  const app = express();
  app.set('query parser', 'extended');
  app.use('{*path}', logger);
  app.get('/events/:id', (req, res) => {
    if (req.params.id === '500') {
      res.status(500).json({ code: 'internal_server_error' });
      return;
    }
    res.status(req.params.id === '404' ? 404 : 200).json({ id: req.params.id });
  });
  return app;
}

async function send(server: Server, path: string, headers: Record<string, string>): Promise<void> {
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    httpRequest({ port, path, headers: { host: 'calendar.example', ...headers } }, (response) => {
      response.resume();
      response.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });
}

describe('request log', () => {
  it('writes the line pino-http wrote, with the same fields, levels and redactions', async () => {
    const runs: Array<Array<Record<string, unknown>>> = [];
    for (const kind of ['pino-http', 'request-log'] as const) {
      ids = 0;
      const { stream, lines } = capture();
      let middleware: express.RequestHandler;
      if (kind === 'pino-http') {
        const http = pinoHttp(
          {
            ...options,
            genReqId: nextId,
            serializers: {
              req: redactRequest,
              res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
              err: redactError,
            },
            customLogLevel: (_request, response, error) =>
              error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
          },
          stream,
        );
        middleware = http;
      } else {
        const root = pino(
          {
            ...options,
            serializers: {
              req: stdSerializers.wrapRequestSerializer(
                redactRequest as unknown as (request: pino.SerializedRequest) => pino.SerializedRequest,
              ),
              res: stdSerializers.wrapResponseSerializer((response: { statusCode: number }) => ({ statusCode: response.statusCode })),
              err: stdSerializers.wrapErrorSerializer(redactError as (error: pino.SerializedError) => pino.SerializedError),
            },
          },
          stream,
        );
        middleware = requestLogMiddleware(root, stream, nextId);
      }
      const server = createServer(appWith(middleware));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await send(server, '/events/7?search=x&token=secret&a[]=1', {
        authorization: 'Basic c2VjcmV0',
        cookie: 'cal_cart=abc',
        'x-cart-token': 't',
      });
      await send(server, '/events/404', { 'x-wp-nonce': 'n' });
      await send(server, '/events/500', {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      runs.push(lines());
    }
    const [expected, actual] = runs;
    expect(actual).toHaveLength(3);
    expect(actual).toEqual(expected);
    expect(actual[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      res: { statusCode: 200 },
      req: {
        id: 'id-1',
        method: 'GET',
        url: '/events/7?search=x&token=[redacted]&a[]=1',
        headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-cart-token': '[redacted]' },
      },
    });
    expect(actual.map((line) => line.level)).toEqual([30, 40, 50]);
  });
});
