import { Module } from '@nestjs/common';
import { PurgeSender } from './purge-sender';

/** Purges of a cache in front (PURGE_URL): sends the keys the catalogue's PurgeKeyCollector wrote into the outbox. */
@Module({
  providers: [PurgeSender],
  exports: [PurgeSender],
})
export class HttpCacheModule {}
