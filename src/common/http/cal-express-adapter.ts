import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, except that a Buffer body (a JsonText's bytes, whose Content-Type
 * answerJsonText set) is sent as it is, where Nest would serialize it as an object. Express
 * answers a matching If-None-Match (the JsonText's ETag, set already) with 304.
 */
export class CalExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    return response.send(body);
  }
}
