import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

interface ClientError extends Error {
  code?: string;
  /** The bytes Node's parser had read when it gave up. */
  rawPacket?: Buffer;
}

/** A request line at least this long is taken as the reason for a header overflow: 414 rather than 431. */
const LONG_REQUEST_LINE_BYTES = 8 * 1024;

/** What a request refused by Node's HTTP parser is answered, in the API's error envelope. */
export function clientErrorAnswer(error: ClientError): { status: number; reason: string; code: string; message: string } | null {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line within its header limit (16 KB by default): when the request
      // line takes half of it or more, the URL is what is too long; otherwise the headers are.
      const packet = error.rawPacket;
      const firstLineEnds = packet ? packet.indexOf('\r\n') : -1;
      if (packet && (firstLineEnds === -1 || firstLineEnds >= LONG_REQUEST_LINE_BYTES)) {
        return { status: 414, reason: 'URI Too Long', code: 'rest_uri_too_long', message: 'The request URL is too long.' };
      }
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        code: 'rest_header_fields_too_large',
        message: 'The request headers are too large.',
      };
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'rest_request_timeout', message: 'The request took too long to arrive.' };
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    default:
      return { status: 400, reason: 'Bad Request', code: 'rest_bad_request', message: 'The request is not valid HTTP.' };
  }
}

/**
 * Node answers a request its parser refuses (headers or URL past its 16 KB limit, malformed HTTP)
 * with a bare status line, or resets the connection. This answers it with the JSON envelope every
 * other error has, then closes the connection (the parser's state is lost, it cannot be reused).
 */
export function answerClientErrorsWithJson(server: Server): void {
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    const answer = clientErrorAnswer(error);
    if (!answer || !socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ code: answer.code, message: answer.message, data: { status: answer.status } });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
