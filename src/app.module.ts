import { Module } from '@nestjs/common';
import { AttendeesModule } from './attendees/attendees.module';
import { AuthModule } from './auth/auth.module';
import { CartModule } from './cart/cart.module';
import { CategoriesModule } from './categories/categories.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging.module';
import { SecurityModule } from './common/security/security.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { NamespacesModule } from './namespaces/namespaces.module';
import { OrdersModule } from './orders/orders.module';
import { OrganizersModule } from './organizers/organizers.module';
import { TagsModule } from './tags/tags.module';
import { TicketsModule } from './tickets/tickets.module';
import { VenuesModule } from './venues/venues.module';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    CommonModule,
    AuthModule,
    NamespacesModule,
    HealthModule,
    SecurityModule,
    MetricsModule,
    // Resource modules: one line each.
    EventsModule,
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
    TicketsModule,
    AttendeesModule,
    CartModule,
    OrdersModule,
  ],
})
export class AppModule {}
