import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { WAITLIST_STATUSES, WaitlistStatus } from '../waitlist-entry.entity';

/** The answer to a join: keep `cancel_token` to leave the list. */
@ApiSchema({ name: 'WaitlistJoined' })
export class WaitlistJoinedResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Place in line, 1 is next' }) position: number;
  @ApiProperty({ enum: ['waiting'] }) status: 'waiting';
  @ApiProperty({ description: 'The secret that leaves the list: DELETE /waitlist/{cancel_token}' }) cancel_token: string;
  @ApiProperty() ticket_id: number;
  @ApiProperty() quantity: number;
}

/** The answer to leaving the list. */
@ApiSchema({ name: 'WaitlistLeft' })
export class WaitlistLeftResponse {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ['cancelled'] }) status: 'cancelled';
  @ApiProperty({ description: 'Units that were held for this entry’s offer and went back (0 when it was waiting)' })
  released_units: number;
}

/** An entry as the managers of its event see it. */
@ApiSchema({ name: 'WaitlistEntry' })
export class WaitlistEntryResponse {
  @ApiProperty() id: number;
  @ApiProperty() ticket_id: number;
  @ApiProperty({ description: 'Event id of the ticket' }) post_id: number;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
  @ApiProperty() quantity: number;
  @ApiProperty() priority: number;
  @ApiProperty({ enum: WAITLIST_STATUSES }) status: WaitlistStatus;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Place in line while waiting (1 is next), else null' })
  position: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'While offered: the token the offer is redeemed with (to resend it)' })
  offer_token: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Units held for the offer' }) offer_quantity: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'While offered: when the hold lapses (ISO 8601, UTC)' })
  offer_expires_at: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'The order that redeemed the offer' }) order_id: number | null;
  @ApiProperty({ description: 'When the entry joined (ISO 8601, UTC)' }) created_at: string;
}

@ApiSchema({ name: 'WaitlistList' })
export class WaitlistListResponse {
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [WaitlistEntryResponse] }) entries: WaitlistEntryResponse[];
}

@ApiSchema({ name: 'WaitlistOffers' })
export class WaitlistOffersResponse {
  @ApiProperty({ type: [WaitlistEntryResponse], description: 'The entries offered units now, in line order' })
  offers: WaitlistEntryResponse[];
}

@ApiSchema({ name: 'WaitlistStats' })
export class WaitlistStatsResponse {
  @ApiProperty() ticket_id: number;
  @ApiProperty() waiting: number;
  @ApiProperty() offered: number;
  @ApiProperty() purchased: number;
  @ApiProperty() expired: number;
  @ApiProperty() cancelled: number;
  @ApiProperty({ description: 'Units wanted by the waiting entries' }) waiting_units: number;
  @ApiProperty({ description: 'Units held for live offers' }) offered_units: number;
}
