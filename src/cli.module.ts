import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { UsersModule } from './auth/users.module';
import { CommonModule } from './common/common.module';
import { appConfig } from './config/app.config';
import { DatabaseModule } from './database/database.module';

/** What the command line tool needs: configuration, the database and the users service. */
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, cache: true, load: [appConfig] }), DatabaseModule, CommonModule, UsersModule],
})
export class CliModule {}
