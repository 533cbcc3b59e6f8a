import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApplicationPassword } from './application-password.entity';
import { User } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Users, application passwords and API tokens, shared by the HTTP auth and the command line tool. */
@Module({
  imports: [TypeOrmModule.forFeature([User, ApplicationPassword, ApiToken])],
  providers: [UsersService, UsersRepository, ApiTokensRepository],
  exports: [UsersService, ApiTokensRepository],
})
export class UsersModule {}
