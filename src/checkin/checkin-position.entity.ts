import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One attendee's state on one list: written under the attendee's row lock, read for the counts. */
@Entity({ name: 'checkin_positions' })
@Index('UQ_checkin_positions_list_attendee', ['listId', 'attendeeId'], { unique: true })
@Index('IDX_checkin_positions_attendee', ['attendeeId'])
export class CheckinPosition {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'list_id', type: 'int' })
  listId: number;

  @Column({ name: 'attendee_id', type: 'int' })
  attendeeId: number;

  @Column({ type: 'int', default: 0 })
  entries: number;

  @Column({ type: 'int', default: 0 })
  exits: number;

  @Column({ type: 'boolean', default: false })
  inside: boolean;

  @Column({ name: 'first_entry_at', type: 'datetime', precision: 3, nullable: true })
  firstEntryAt: Date | null;

  @Column({ name: 'last_entry_at', type: 'datetime', precision: 3, nullable: true })
  lastEntryAt: Date | null;

  @Column({ name: 'last_exit_at', type: 'datetime', precision: 3, nullable: true })
  lastExitAt: Date | null;
}
