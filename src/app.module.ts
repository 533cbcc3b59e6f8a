import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AuthModule } from './auth/auth.module';
import { CommonModule } from './common/common.module';
import { LoggingModule } from './common/logging.module';
import { appConfig } from './config/app.config';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { NamespacesModule } from './namespaces/namespaces.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, load: [appConfig] }),
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
