import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { ApiError } from '../common/errors/api-error';
import { DatabasePing, failedChecks } from './database-ping';
import { AnyScope } from '../auth/scope-decorators';

@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabasePing,
  ) {}

  /** Liveness plus a database ping: 200 when the service can answer requests. */
  @Get()
  @AnyScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Health: the process is up and the database answers' })
  @ApiOkResponse({ description: '`{status: "ok", info: {database: {status: "up"}}}`' })
  @ApiServiceUnavailableResponse({ description: 'db-unavailable' })
  check(): Promise<HealthCheckResult> {
    return this.checkDatabase();
  }

  /** Ready to take traffic: the database answers. */
  @Get('ready')
  @AnyScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Readiness: the database answers' })
  @ApiOkResponse({ description: 'Ready' })
  @ApiServiceUnavailableResponse({ description: 'db-unavailable' })
  ready(): Promise<HealthCheckResult> {
    return this.checkDatabase();
  }

  /** The process is alive; touches nothing else, so a slow database never restarts it. */
  @Get('live')
  @AnyScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ description: '`{status: "ok"}`' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  private async checkDatabase(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.check('database', 2000)]);
    } catch (error) {
      const details = failedChecks(error);
      throw new ApiError('db-unavailable', 'The database is unavailable.', 503, details ? { checks: details } : {});
    }
  }
}
