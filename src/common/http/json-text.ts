import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/**
 * A response body already serialized: a handler that assembles its JSON from stored strings returns
 * it so that the body is not parsed and serialized again. `surrogateKeys` name what it shows, for
 * HttpCachingInterceptor (which cannot read them from a string).
 */
export class JsonText {
  constructor(
    readonly text: string,
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
        return body.text;
      }),
    );
  }
}
