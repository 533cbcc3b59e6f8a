import { Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { RateLimitGuard } from '../common/throttling/rate-limit.guard';
import { ThrottlingModule } from '../common/throttling/throttling.module';
import { appConfig } from '../config/app.config';
import { AuthenticationGuard } from './authentication.guard';
import { AuthenticationService } from './authentication.service';
import { CapabilityGuard } from './capability.guard';
import { NonceGuard } from './nonce.guard';
import { NonceService } from './nonce.service';
import { ScopeGuard } from './scope.guard';
import { NoncesController } from './nonces.controller';
import { UsersModule } from './users.module';
import { UsersService } from './users.service';

/**
 * Authentication (Basic with application passwords, Bearer API tokens), scopes, capabilities and
 * nonces. The guards are global and run in this order: who is calling, are they within their
 * request limit, does their token carry the route's scope, may they, is the nonce right.
 */
@Module({
  imports: [UsersModule, ThrottlingModule],
  controllers: [NoncesController],
  providers: [
    AuthenticationService,
    NonceService,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useClass: ScopeGuard },
    { provide: APP_GUARD, useClass: CapabilityGuard },
    { provide: APP_GUARD, useClass: NonceGuard },
  ],
  exports: [UsersModule, NonceService, AuthenticationService],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.bootstrapAdmin;
    if (admin) await this.users.ensureBootstrapAdministrator(admin.login, admin.password);
  }
}
