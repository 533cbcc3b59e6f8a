import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequireAuthentication } from './decorators';
import { NonceService } from './nonce.service';
import type { AuthenticatedUser } from './roles';
import { AnyScope } from './scope-decorators';

@ApiSchema({ name: 'Nonces' })
export class NoncesResponse {
  @ApiProperty({ description: 'Nonce for creating a ticket (POST /tickets), valid 12 to 24 hours' })
  add_ticket_nonce: string;

  @ApiProperty({ description: 'Nonce for updating a ticket' })
  edit_ticket_nonce: string;

  @ApiProperty({ description: 'Nonce for deleting a ticket' })
  remove_ticket_nonce: string;
}

@ApiTags('tickets')
@Controller('tickets/v1/nonces')
export class NoncesController {
  constructor(private readonly nonces: NonceService) {}

  @Get()
  @AnyScope()
  @HttpCode(200)
  @RequireAuthentication({ unauthorized: 'Anonymous caller (rest_forbidden) or wrong credentials (incorrect_password)' })
  @ApiOperation({ summary: 'The ticket nonces of the authenticated caller' })
  @ApiOkResponse({ type: NoncesResponse })
  issue(@CurrentUser() user: AuthenticatedUser): NoncesResponse {
    return {
      add_ticket_nonce: this.nonces.create('add_ticket_nonce', user.id),
      edit_ticket_nonce: this.nonces.create('edit_ticket_nonce', user.id),
      remove_ticket_nonce: this.nonces.create('remove_ticket_nonce', user.id),
    };
  }
}
