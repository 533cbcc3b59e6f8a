import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { CategoriesModule } from './categories/categories.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { NamespacesModule } from './namespaces/namespaces.module';
import { OrganizersModule } from './organizers/organizers.module';
import { TagsModule } from './tags/tags.module';
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
    // Resource modules: one line each.
    EventsModule,
    VenuesModule,
    OrganizersModule,
    CategoriesModule,
    TagsModule,
  ],
})
export class AppModule {}
