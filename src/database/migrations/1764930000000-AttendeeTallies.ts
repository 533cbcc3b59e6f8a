import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, createTrigger, idColumn, isMysql, Trigger } from '../migration-helpers';

function triggers(mysql: boolean): Trigger[] {
  return [
    { name: 'TRG_attendees_insert_tally', timing: 'AFTER INSERT ON attendees', body: ['INSERT INTO attendee_tallies (delta) VALUES (1)'] },
    { name: 'TRG_attendees_delete_tally', timing: 'AFTER DELETE ON attendees', body: ['INSERT INTO attendee_tallies (delta) VALUES (-1)'] },
    // Deleting an order deletes its attendees by foreign key, which fires no trigger on MariaDB
    // (SQLite runs the attendees' own delete trigger for them).
    ...(mysql
      ? [
          {
            name: 'TRG_orders_delete_tally',
            timing: 'BEFORE DELETE ON orders',
            body: ['INSERT INTO attendee_tallies (delta) SELECT -COUNT(*) FROM attendees WHERE order_id = OLD.id HAVING COUNT(*) > 0'],
          },
        ]
      : []),
  ];
}

/**
 * `attendee_tallies`: how many attendees there are, as the sum of its rows. Each attendee written
 * or deleted adds a row of +1 or -1 in the writing transaction (triggers, whoever writes), rows
 * that no other transaction ever waits for, so a sale's checkouts do not queue on a counter; the
 * service folds them into one row every few seconds (src/attendees/attendee-tallies.ts). The
 * whole attendee list of a manager is counted from it in a read of a few rows, where counting the
 * table read every index entry (0.8 s at a million events) after every checkout.
 */
export class AttendeeTallies1764930000000 implements MigrationInterface {
  name = 'AttendeeTallies1764930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'attendee_tallies',
        columns: [idColumn, { name: 'delta', type: 'int', isNullable: false }],
      }),
    );
    await queryRunner.query('INSERT INTO attendee_tallies (delta) SELECT COUNT(*) FROM attendees');
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of triggers(isMysql(queryRunner))) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    await queryRunner.dropTable('attendee_tallies', true);
  }
}
