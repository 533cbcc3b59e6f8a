import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { NamespacesModule } from './namespaces/namespaces.module';

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
  ],
})
export class AppModule {}
