import { Module } from '@nestjs/common';
import { AttendeesModule } from '../attendees/attendees.module';
import { CatalogueReadModule } from '../catalogue/catalogue.module';
import { CheckinModule } from '../checkin/checkin.module';
import { RateLimitStoreModule } from '../common/throttling/throttling.module';
import { CouponsModule } from '../coupons/coupons.module';
import { EmailsModule } from '../emails/emails.module';
import { EventRoutesModule } from '../event-routes/event-routes.module';
import { OrdersModule } from '../orders/orders.module';
import { OrganizersModule } from '../organizers/organizers.module';
import { ReportsModule } from '../reports/reports.module';
import { TecV1Module } from '../tec-v1/tec-v1.module';
import { TicketsModule } from '../tickets/tickets.module';
import { VenuesModule } from '../venues/venues.module';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { Confirmations } from './confirmations';
import { McpAudit } from './mcp-audit';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpToolsRegistry } from './mcp-tools.registry';
import { BoxOfficeTools } from './tools/box-office-tools';
import { CalendarTools } from './tools/calendar-tools';
import { TecTools } from './tools/tec-tools';

/**
 * The MCP endpoint (`/mcp`, docs/mcp.md): tools for AI agents over the same services the REST routes
 * call, listed per caller by role and token scopes (`access/tool-access.ts`). It imports the feature
 * modules it adapts and none imports it.
 */
@Module({
  imports: [
    RateLimitStoreModule,
    TecV1Module,
    CatalogueReadModule,
    EventRoutesModule,
    VenuesModule,
    OrganizersModule,
    TicketsModule,
    ReportsModule,
    OrdersModule,
    AttendeesModule,
    CheckinModule,
    EmailsModule,
    CouponsModule,
    WaitlistModule,
  ],
  controllers: [McpController],
  providers: [McpToolsRegistry, TecTools, CalendarTools, BoxOfficeTools, McpServerFactory, Confirmations, McpAudit],
})
export class McpModule {}
