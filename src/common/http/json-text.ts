import type { Request, Response } from 'express';
import { ByteAssembler } from './byte-assembler';

/**
 * A body whose strong ETag is known before its bytes are: they are assembled only when the
 * conditional GET does not name it. `assemble` answers the bytes with their ETag, which is the one
 * announced unless what they were read from moved meanwhile.
 */
export interface DeferredBody {
  readonly etag: string;
  assemble(): Promise<{ bytes: ByteAssembler; etag: string }>;
}

/**
 * A response body already serialized: a handler that assembles its JSON from stored documents
 * returns it so that the body is not parsed and serialized again, nor encoded again (it is bytes:
 * CalExpressAdapter sends them as they are), nor hashed for its ETag, which comes from what the
 * bytes are made of (ByteAssembler.etag). `surrogateKeys` name what it shows, for
 * HttpCaching (which cannot read them from the body).
 */
export class JsonText {
  constructor(
    readonly body: ByteAssembler | DeferredBody,
    readonly surrogateKeys: string[],
  ) {}
}

/** What answerJsonText answers for a GET whose If-None-Match names the ETag: no body, and the status is 304. */
export const NOT_MODIFIED = Buffer.alloc(0);

/**
 * What a handler's answer is sent as: a JsonText as `application/json` with its strong ETag, its
 * bytes assembled only when a GET's If-None-Match does not name that ETag (then 304, no body);
 * anything else as it is. The last step of RequestPipelineInterceptor and of the anonymous event read.
 */
export async function answerJsonText(request: Request, response: Response, text: unknown): Promise<unknown> {
  if (!(text instanceof JsonText)) return text;
  const { body } = text;
  // Set here, Express neither hashes the body for an ETag of its own nor misses the match.
  response.setHeader('ETag', body instanceof ByteAssembler ? body.etag() : body.etag);
  // Express's own freshness test (If-None-Match against the ETag just set): it answers 304 for an
  // empty body as well, and a 304 carries no Content-Type (Express would remove it).
  if (request.fresh) return NOT_MODIFIED;
  response.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (body instanceof ByteAssembler) return body.toBuffer();
  const { bytes, etag } = await body.assemble();
  response.setHeader('ETag', etag);
  return bytes.toBuffer();
}

/**
 * Writes what answerJsonText answered as Express's `send` writes it for a GET or HEAD whose answer
 * has its headers set (ETag, Content-Type), without its work for any other kind of body: a 304
 * without a body, else 200 with the bytes and their Content-Length (none written for HEAD). For the
 * routes answered before Nest's router (AnonymousEventReadMiddleware).
 */
export function sendAnswer(request: Request, response: Response, answer: Buffer): void {
  if (answer === NOT_MODIFIED) {
    response.statusCode = 304;
    response.end();
    return;
  }
  response.statusCode = 200;
  response.setHeader('Content-Length', answer.length);
  if (request.method === 'HEAD') response.end();
  else response.end(answer);
}
