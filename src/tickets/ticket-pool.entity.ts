import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** An event's shared capacity (`ticket[event_capacity]`), drawn on by its capped and global tickets. */
@Entity({ name: 'ticket_pools' })
export class TicketPool {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  @Column({ type: 'int' })
  capacity: number;

  @Column({ type: 'int', default: 0 })
  sold: number;

  @Column({ type: 'int', default: 0 })
  pending: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
