import { PartialType } from '@nestjs/swagger';
import { UpdateTicketDto } from '../../tickets/dto/update-ticket.dto';

/**
 * A tec/v1 ticket update as the tickets namespace validates it, with its event optional: tec/v1
 * callers name the ticket alone (an `event` sent must still be the ticket's own).
 */
export class TecTicketUpdateInput extends PartialType(UpdateTicketDto) {}
