import { Module } from '@nestjs/common';
import { UsersModule } from './auth/users.module';
import { CommonModule } from './common/common.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/** What the command line tool needs: configuration, the database and the users service. */
@Module({
  imports: [AppConfigModule, DatabaseModule, CommonModule, UsersModule],
})
export class CliModule {}
