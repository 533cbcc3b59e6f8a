import { Module } from '@nestjs/common';
import { UsersModule } from '../auth/users.module';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/** The cal/auth/v1 namespace's tokens routes (docs/tokens.md); authentication by token is in auth/. */
@Module({
  imports: [UsersModule],
  controllers: [TokensController],
  providers: [TokensService, TokensRepository],
})
export class TokensModule {}
