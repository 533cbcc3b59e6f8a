import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { mergeMap, Observable, Subscriber } from 'rxjs';
import { readFromReplicas, ReplicaReadRoutes } from '../../database/read-replicas';
import { withRequestGenerations } from '../caching/request-generations';
import { HttpCaching } from './http-caching';
import { answerJsonText } from './json-text';

/**
 * The one global interceptor, around every HTTP handler, in this order:
 *
 * 1. HTTP caching: the answer's Cache-Control before the handler runs, and for an anonymous read of
 *    public content its public Cache-Control and surrogate keys after (HttpCaching);
 * 2. the handler inside its request's memo of count generations (withRequestGenerations) and, for
 *    the catalogue lists, with its reads on the replicas (ReplicaReadRoutes);
 * 3. the answer as the caller may see it (`AnswerFilter`: personal data masked for API tokens that
 *    say so, given by app.setup since common/ knows no callers);
 * 4. a pre-serialized answer sent as its bytes, or 304 (answerJsonText).
 *
 * One interceptor rather than one per concern: Nest wraps each global interceptor of every request
 * in an observable and an async resource of its own; with four of them, a CPU profile of the
 * single-event GET put about 3 % of it in those bindings alone, besides rxjs and its garbage.
 */
/** Rewrites a handler's answer for its caller, or answers it as it is (`undefined` for most requests, at no cost). */
export type AnswerFilter = (request: Request, body: unknown) => Promise<unknown> | undefined;

@Injectable()
export class RequestPipelineInterceptor implements NestInterceptor {
  constructor(
    private readonly caching: HttpCaching,
    private readonly replicaRoutes: ReplicaReadRoutes,
    private readonly filterAnswer: AnswerFilter = () => undefined,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const publicRead = this.caching.beforeHandler(context);
    const onReplicas = this.replicaRoutes.readFromReplicas(context);
    // Nest binds the handler to the async context that next.handle() is called in: called inside
    // the stores, the handler sees them through every await.
    const subscribe = (subscriber: Subscriber<unknown>) =>
      next
        .handle()
        .pipe(
          mergeMap(async (body: unknown) => {
            publicRead?.(body);
            const request = http.getRequest<Request>();
            const filtered = this.filterAnswer(request, body);
            return answerJsonText(request, http.getResponse(), filtered === undefined ? body : await filtered);
          }),
        )
        .subscribe(subscriber);
    return new Observable((subscriber) =>
      withRequestGenerations(() => (onReplicas ? readFromReplicas(() => subscribe(subscriber)) : subscribe(subscriber))),
    );
  }
}
