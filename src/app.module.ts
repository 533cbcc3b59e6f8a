import { Module } from '@nestjs/common';
import { AttendeeQuestionsModule } from './attendee-questions/attendee-questions.module';
import { AttendeesModule } from './attendees/attendees.module';
import { AuthModule } from './auth/auth.module';
import { TokensModule } from './tokens/tokens.module';
import { CatalogueReadModule } from './catalogue/catalogue.module';
import { CartModule } from './cart/cart.module';
import { CategoriesModule } from './categories/categories.module';
import { CouponsModule } from './coupons/coupons.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging.module';
import { SecurityModule } from './common/security/security.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventRoutesModule } from './event-routes/event-routes.module';
import { EventsModule } from './events/events.module';
import { ExportsModule } from './exports/exports.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { NamespacesModule } from './namespaces/namespaces.module';
import { OrdersModule } from './orders/orders.module';
import { PaymentsModule } from './payments/payments.module';
import { OrganizersModule } from './organizers/organizers.module';
import { OutboxModule } from './outbox/outbox.module';
import { OutboxWorkerModule } from './outbox-worker/outbox-worker.module';
import { ReportsModule } from './reports/reports.module';
import { SeriesFactsModule } from './series/series-facts';
import { SeriesModule } from './series/series.module';
import { TagsModule } from './tags/tags.module';
import { TecV1Module } from './tec-v1/tec-v1.module';
import { McpModule } from './mcp/mcp.module';
import { EmailsModule } from './emails/emails.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { EventTicketingModule, TicketsModule } from './tickets/tickets.module';
import { VenuesModule } from './venues/venues.module';
import { WaitlistModule } from './waitlist/waitlist.module';
import { DoorPageModule } from './checkin/door-page/door-page.module';
import { CheckinModule } from './checkin/checkin.module';
import { DoorSalesModule } from './door-sales/door-sales.module';
import { QueuesModule } from './queues/queues.module';
import { QueuePageModule } from './queues/queue-page/queue-page.module';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    CommonModule,
    AuthModule,
    TokensModule,
    NamespacesModule,
    HealthModule,
    SecurityModule,
    MetricsModule,
    OutboxModule,
    // Resource modules: one line each.
    // Exports before attendees and orders: /attendees/export must match before /attendees/:id.
    ExportsModule,
    ReportsModule,
    EventsModule,
    CatalogueReadModule,
    EventRoutesModule,
    SeriesModule,
    SeriesFactsModule,
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
    TicketsModule,
    EventTicketingModule,
    AttendeesModule,
    CartModule,
    OrdersModule,
    CouponsModule,
    AttendeeQuestionsModule,
    PaymentsModule,
    EmailsModule,
    WebhooksModule,
    WaitlistModule,
    OutboxWorkerModule,
    DoorPageModule,
    CheckinModule,
    DoorSalesModule,
    QueuesModule,
    QueuePageModule,
    TecV1Module,
    McpModule,
  ],
})
export class AppModule {}
