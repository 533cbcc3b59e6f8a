import { AsyncResource } from 'node:async_hooks';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { defer, from, lastValueFrom, Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { readingFromReplicas, ReplicaReadRoutes } from '../../database/read-replicas';
import { CountCache } from '../../catalogue/caching/count-cache';
import type { HttpCaching } from './http-caching';
import { JsonText } from './json-text';
import { ByteAssembler } from './byte-assembler';
import { RequestPipelineInterceptor } from './request-pipeline.interceptor';
import type { TransactionHost } from '../database/transaction-host';

/** A CallHandler as Nest makes it: the handler bound to the async context next.handle() is called in. */
function handlerOf<T>(work: () => Promise<T>): CallHandler {
  return { handle: (): Observable<T> => defer(AsyncResource.bind(() => from(work()))) };
}

function httpContext(headers: Record<string, string> = {}): { context: ExecutionContext; sent: Record<string, string> } {
  const sent: Record<string, string> = {};
  const request = { method: 'GET', headers, fresh: false };
  const response = { setHeader: (name: string, value: string) => (sent[name] = value) };
  const context = {
    getType: () => 'http',
    getHandler: () => handlerOf,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { context, sent };
}

function pipeline(replicas: boolean, publicRead: ((body: unknown) => void) | null = null): RequestPipelineInterceptor {
  const caching = { beforeHandler: () => publicRead } as unknown as HttpCaching;
  const routes = { readFromReplicas: () => replicas } as unknown as ReplicaReadRoutes;
  return new RequestPipelineInterceptor(caching, routes);
}

/** A CountCache whose generation reads are counted. */
function countingCache(): { cache: CountCache; reads: () => number } {
  let reads = 0;
  const builder = {
    select: () => builder,
    from: () => builder,
    where: () => builder,
    getRawOne: () => Promise.resolve({ generation: (reads += 1) }),
  };
  const dataSource = { createQueryBuilder: () => builder } as unknown as DataSource;
  const config = { countCacheMb: 1, countCacheSeconds: 60 } as ConstructorParameters<typeof CountCache>[1];
  return { cache: new CountCache({ dataSource } as unknown as TransactionHost, config, { now: () => new Date() }), reads: () => reads };
}

describe('RequestPipelineInterceptor', () => {
  it('runs a catalogue list’s handler on the replicas through every await, and no other', async () => {
    const seen = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return readingFromReplicas();
    };
    expect(await lastValueFrom(pipeline(true).intercept(httpContext().context, handlerOf(seen)))).toBe(true);
    expect(await lastValueFrom(pipeline(false).intercept(httpContext().context, handlerOf(seen)))).toBe(false);
  });

  it('gives each request one memo of count generations: read once per request and scope', async () => {
    const { cache, reads } = countingCache();
    const twice = async () => [await cache.generationOf('events'), await cache.generationOf('events')];
    expect(await lastValueFrom(pipeline(false).intercept(httpContext().context, handlerOf(twice)))).toEqual([1, 1]);
    expect(await lastValueFrom(pipeline(false).intercept(httpContext().context, handlerOf(twice)))).toEqual([2, 2]);
    expect(reads()).toBe(2);
  });

  it('makes an anonymous public read public before sending a pre-serialized answer as its bytes with its ETag', async () => {
    const order: string[] = [];
    const bytes = new ByteAssembler().addText('{"ok":true}');
    const { context, sent } = httpContext();
    const answer = await lastValueFrom(
      pipeline(false, () => order.push('public')).intercept(
        context,
        handlerOf(async () => new JsonText(bytes, ['events'])),
      ),
    );
    order.push('sent');
    expect(order).toEqual(['public', 'sent']);
    expect(answer).toEqual(Buffer.from('{"ok":true}'));
    expect(sent).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', ETag: bytes.etag() });
  });
});
