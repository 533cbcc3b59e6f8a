import { Module } from '@nestjs/common';
import { UsersModule } from '../auth/users.module';
import { EventRoutesModule } from '../event-routes/event-routes.module';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { NamespacesModule } from '../namespaces/namespaces.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { TicketsModule } from '../tickets/tickets.module';
import { VenuesModule } from '../venues/venues.module';
import { ExperimentalAcknowledgementGuard } from './experimental-acknowledgement.guard';
import { TecEventsController } from './tec-events.controller';
import { TecEventsService } from './tec-events.service';
import { TecOrganizersController, TecVenuesController } from './tec-linked-posts.controller';
import { TecOrganizersService, TecVenuesService } from './tec-linked-posts.service';
import { TecNamespaceController } from './tec-namespace.controller';
import { TecTicketsController } from './tec-tickets.controller';
import { TecTicketsService } from './tec-tickets.service';
import { WpDiscoveryController } from './wp-discovery.controller';
import { WpDiscoveryService } from './wp-discovery.service';

/**
 * TEC's newer REST API, `tec/v1` (docs/tec-v1.md), and the WordPress discovery routes its clients
 * call first: adapters over the events and tickets namespaces' services, in WordPress's shapes.
 */
@Module({
  imports: [CatalogueReadModule, EventRoutesModule, VenuesModule, OrganizersModule, TicketsModule, NamespacesModule, UsersModule],
  controllers: [
    TecNamespaceController,
    TecEventsController,
    TecVenuesController,
    TecOrganizersController,
    TecTicketsController,
    WpDiscoveryController,
  ],
  providers: [
    TecEventsService,
    TecVenuesService,
    TecOrganizersService,
    TecTicketsService,
    WpDiscoveryService,
    ExperimentalAcknowledgementGuard,
  ],
  // The MCP endpoint's TEC tools call the same services.
  exports: [TecEventsService, TecVenuesService, TecOrganizersService, TecTicketsService],
})
export class TecV1Module {}
