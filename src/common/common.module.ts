import { Global, Module } from '@nestjs/common';
import { CLOCK, systemClock } from './clock';
import { ApiUrls } from './http/api-urls.service';

/** Cross-cutting providers every feature module may inject. */
@Global()
@Module({
  providers: [ApiUrls, { provide: CLOCK, useValue: systemClock }],
  exports: [ApiUrls, CLOCK],
})
export class CommonModule {}
