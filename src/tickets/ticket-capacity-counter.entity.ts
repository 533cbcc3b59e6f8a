import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CapacityMode } from './ticket.entity';

/**
 * What a ticket has sold and holds, apart from the ticket row. Attendees, order items and cart
 * lines reference tickets by foreign key, so inserting them takes shared locks on the ticket row;
 * no foreign key points here, so a checkout can insert its order first and take capacity from this
 * row last, holding its lock only from that UPDATE to COMMIT. The row carries a copy of the ticket's
 * mode and cap (kept in the transaction of every ticket write) so that the conditional UPDATE
 * decides on this row alone.
 */
@Entity({ name: 'ticket_capacity_counters' })
export class TicketCapacityCounter {
  @PrimaryColumn({ name: 'ticket_id', type: 'int' })
  ticketId: number;

  /** The ticket's capacity mode when last written: a take for another mode finds no row. */
  @Column({ name: 'capacity_mode', type: 'varchar', length: 10 })
  capacityMode: CapacityMode;

  /** The ticket's own cap (own, capped); null when only the pool (or nothing) limits it. */
  @Column({ type: 'int', nullable: true })
  capacity: number | null;

  /** Units in completed orders (and RSVP "going" answers). */
  @Column({ type: 'int', default: 0 })
  sold: number;

  /** Units held by pending orders. */
  @Column({ type: 'int', default: 0 })
  pending: number;
}
