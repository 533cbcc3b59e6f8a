import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { MAX_ID } from '../../cart/dto/update-cart.dto';

export const MAX_PRIORITY = 1_000_000;
/** Most units one manual offer hands out. */
export const MAX_OFFER_UNITS = 1000;

/** Body of PATCH /waitlist/{id}: moves an entry in line. */
@ApiSchema({ name: 'WaitlistReorder' })
export class ReorderWaitlistDto {
  @ApiProperty({
    description: 'Higher goes first; entries of equal priority keep the order of joining (default 0)',
    type: 'integer',
    minimum: -MAX_PRIORITY,
    maximum: MAX_PRIORITY,
  })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'priority must be a whole number' })
  @Min(-MAX_PRIORITY, { message: `priority must be within ±${MAX_PRIORITY}` })
  @Max(MAX_PRIORITY, { message: `priority must be within ±${MAX_PRIORITY}` })
  priority: number;
}

/** Body of POST /waitlist/offer-next: offer up to `quantity` free units to the next in line now. */
@ApiSchema({ name: 'WaitlistOfferNext' })
export class OfferNextDto {
  @ApiProperty({ description: 'The ticket', type: 'integer', minimum: 1 })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'ticket_id must be a ticket id' })
  @Min(1, { message: 'ticket_id must be a ticket id' })
  @Max(MAX_ID, { message: 'ticket_id must be a ticket id' })
  ticket_id: number;

  @ApiProperty({ description: 'Most units to offer (never more than are free)', type: 'integer', minimum: 1, maximum: MAX_OFFER_UNITS })
  @IsDefined()
  @ToInteger()
  @IsInt({ message: 'quantity must be a whole number' })
  @Min(1, { message: `quantity must be 1 to ${MAX_OFFER_UNITS}` })
  @Max(MAX_OFFER_UNITS, { message: `quantity must be 1 to ${MAX_OFFER_UNITS}` })
  quantity: number;
}
