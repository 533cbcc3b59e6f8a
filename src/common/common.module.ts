import { Global, Module } from '@nestjs/common';
import { CountCache } from './caching/count-cache';
import { CountCacheInvalidation } from './caching/count-cache-invalidation';
import { CLOCK, systemClock } from './clock';
import { DomainEvents } from './domain-events/domain-events';
import { ApiUrls } from './http/api-urls.service';
import { HttpCaching } from './http/http-caching';

/** Cross-cutting providers every feature module may inject. */
@Global()
@Module({
  providers: [ApiUrls, HttpCaching, { provide: CLOCK, useValue: systemClock }, CountCache, CountCacheInvalidation, DomainEvents],
  exports: [ApiUrls, HttpCaching, CLOCK, CountCache, DomainEvents],
})
export class CommonModule {}
