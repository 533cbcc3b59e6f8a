import { Global, Module } from '@nestjs/common';
import { CountCache } from './caching/count-cache';
import { CountCacheInvalidation } from './caching/count-cache-invalidation';
import { PurgeKeyCollector } from './purges/purge-key-collector';

/**
 * The catalogue's read side: what writes make stale (its listeners of domain events) and the
 * bytes reads answer.
 */
@Global()
@Module({
  providers: [CountCache, CountCacheInvalidation, PurgeKeyCollector],
  exports: [CountCache],
})
export class CatalogueReadModule {}
