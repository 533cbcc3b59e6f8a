import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/**
 * A response body already serialized: a handler that assembles its JSON from stored documents
 * returns it so that the body is not parsed and serialized again. As bytes (a Buffer) it is also
 * not encoded again: CalExpressAdapter sends it as it is. `surrogateKeys` name what it shows, for
 * HttpCachingInterceptor (which cannot read them from the body).
 */
export class JsonText {
  constructor(
    readonly body: string | Buffer,
    readonly surrogateKeys: string[],
  ) {}
}

/** Sends a JsonText as it is, as `application/json`; registered outermost, so that it runs last. */
@Injectable()
export class JsonTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((body: unknown) => {
        if (!(body instanceof JsonText)) return body;
        context.switchToHttp().getResponse<Response>().setHeader('Content-Type', 'application/json; charset=utf-8');
        return body.body;
      }),
    );
  }
}
