import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { IsDefined, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { RequireAuthentication, RequiresNonce } from '../../src/auth/decorators';
import { ToIntList } from '../../src/common/http/transforms';

export class ProbeBody {
  @IsDefined()
  @IsString()
  name: string;

  @IsOptional()
  @ToIntList()
  @IsInt({ each: true })
  ids?: number[];

  @IsOptional()
  @IsObject()
  ticket?: Record<string, unknown>;
}

/** Routes that exist only in tests, to exercise the global set-up on its own. */
@Controller('tickets/v1/probe')
export class ProbeController {
  @Post('echo')
  @HttpCode(200)
  echo(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Post('nonce')
  @HttpCode(200)
  @RequireAuthentication()
  @RequiresNonce('edit_ticket_nonce')
  nonce(): { ok: true } {
    return { ok: true };
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internals: password=hunter2');
  }
}
