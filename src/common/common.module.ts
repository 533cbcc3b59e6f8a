import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CLOCK, systemClock } from './clock';
import { TransactionHost } from './database/transaction-host';
import { DomainEvents } from './domain-events/domain-events';
import { DomainEventsTransactionBridge } from './domain-events/transaction-bridge';
import { ApiUrls } from './http/api-urls.service';
import { HttpCaching } from './http/http-caching';

/** Cross-cutting providers every feature module may inject. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [
    ApiUrls,
    HttpCaching,
    { provide: CLOCK, useValue: systemClock },
    DomainEvents,
    DomainEventsTransactionBridge,
    TransactionHost,
  ],
  exports: [ApiUrls, HttpCaching, CLOCK, DomainEvents, TransactionHost],
})
export class CommonModule {}
