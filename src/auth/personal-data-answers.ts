import type { Request } from 'express';
import { ByteAssembler } from '../common/http/byte-assembler';
import { JsonText } from '../common/http/json-text';
import type { AuthenticatedRequest } from './decorators';
import { redactPersonalData, shouldRedact } from './personal-data';

/**
 * The one place answers are masked for API tokens with `pii: 'redacted'` (the request pipeline's
 * `AnswerFilter`, set by app.setup): every JSON answer of every route, whatever its mapper, goes
 * through `redactPersonalData`. A pre-serialized answer (stored event documents) is parsed for it.
 * Other callers pay one property read. Exports mask their cells in the export writer.
 */
export function redactAnswerForToken(request: Request, body: unknown): Promise<unknown> | undefined {
  if (!shouldRedact((request as AuthenticatedRequest).user)) return undefined;
  return redactAnswer(body);
}

async function redactAnswer(body: unknown): Promise<unknown> {
  if (body instanceof JsonText) {
    const bytes = body.body instanceof ByteAssembler ? body.body.toBuffer() : (await body.body.assemble()).bytes.toBuffer();
    return redactPersonalData(JSON.parse(bytes.toString('utf8')) as unknown);
  }
  if (Buffer.isBuffer(body) || typeof body === 'string' || body === undefined || body === null) return body;
  return redactPersonalData(body);
}
