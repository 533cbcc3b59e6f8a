import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import type { ByteAssembler } from './byte-assembler';

/**
 * A response body already serialized: a handler that assembles its JSON from stored documents
 * returns it so that the body is not parsed and serialized again, nor encoded again (it is bytes:
 * CalExpressAdapter sends them as they are), nor hashed for its ETag, which comes from what the
 * bytes are made of (ByteAssembler.etag). `surrogateKeys` name what it shows, for
 * HttpCachingInterceptor (which cannot read them from the body).
 */
export class JsonText {
  constructor(
    readonly body: ByteAssembler,
    readonly surrogateKeys: string[],
  ) {}
}

const NO_BODY = Buffer.alloc(0);

/**
 * Sends a JsonText as `application/json` with its strong ETag; a GET whose If-None-Match names
 * that ETag gets its 304 without the body ever being assembled. Registered outermost, so that it
 * runs last.
 */
@Injectable()
export class JsonTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof JsonText)) return body;
        const http = context.switchToHttp();
        const response = http.getResponse<Response>();
        response.setHeader('Content-Type', 'application/json; charset=utf-8');
        // Set here, Express neither hashes the body for an ETag of its own nor misses the match.
        response.setHeader('ETag', body.body.etag());
        // Express's own freshness test (If-None-Match against the ETag just set): it answers 304 for an empty body as well.
        if (http.getRequest<Request>().fresh) return NO_BODY;
        return body.body.toBuffer();
      }),
    );
  }
}
