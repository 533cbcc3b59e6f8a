import { Module } from '@nestjs/common';
import { PurgeKeyCollector } from './purge-key-collector';
import { PurgeSender } from './purge-sender';

/** Purges of a cache in front (PURGE_URL): the keys each write makes stale, written into the outbox and sent by its worker. */
@Module({
  providers: [PurgeKeyCollector, PurgeSender],
  exports: [PurgeSender],
})
export class HttpCacheModule {}
