import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change of the number of attendees (+1, -1, or a folded sum): the number is the sum of the
 * rows. Written by database triggers on attendees and folded by AttendeeTallies; the migration
 * AttendeeTallies says why.
 */
@Entity({ name: 'attendee_tallies' })
export class AttendeeTally {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'int' })
  delta: number;
}
