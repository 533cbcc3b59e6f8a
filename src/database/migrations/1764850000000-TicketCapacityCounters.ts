import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable } from '../migration-helpers';

/**
 * Moves each ticket's sold and pending counts out of the ticket row into `ticket_capacity_counters`,
 * which no foreign key references: inserting attendees and order items locks the ticket row in
 * share mode, so a checkout that took capacity on the ticket row first had to hold it through all
 * its inserts (taking it last deadlocked). The counts of the event pools stay in `ticket_pools`,
 * which no foreign key references either.
 */
export class TicketCapacityCounters1764850000000 implements MigrationInterface {
  name = 'TicketCapacityCounters1764850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'ticket_capacity_counters',
        columns: [
          { name: 'ticket_id', type: 'int', isPrimary: true },
          { name: 'capacity_mode', type: 'varchar', length: '10', isNullable: false },
          { name: 'capacity', type: 'int', isNullable: true },
          { name: 'sold', type: 'int', isNullable: false, default: 0 },
          { name: 'pending', type: 'int', isNullable: false, default: 0 },
        ],
        foreignKeys: [
          // Counter → ticket only: updating the counts never touches the ticket row.
          {
            name: 'FK_ticket_capacity_counters_ticket',
            columnNames: ['ticket_id'],
            referencedTableName: 'tickets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await queryRunner.query(
      `INSERT INTO ticket_capacity_counters (ticket_id, capacity_mode, capacity, sold, pending) ` +
        `SELECT id, capacity_mode, capacity, sold, pending FROM tickets`,
    );
    // Native DROP COLUMN on both (SQLite ≥ 3.35): rebuilding the tickets table would cascade into attendees.
    await queryRunner.query('ALTER TABLE tickets DROP COLUMN sold');
    await queryRunner.query('ALTER TABLE tickets DROP COLUMN pending');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE tickets ADD COLUMN sold int NOT NULL DEFAULT 0');
    await queryRunner.query('ALTER TABLE tickets ADD COLUMN pending int NOT NULL DEFAULT 0');
    await queryRunner.query(
      'UPDATE tickets SET ' +
        'sold = COALESCE((SELECT c.sold FROM ticket_capacity_counters c WHERE c.ticket_id = tickets.id), 0), ' +
        'pending = COALESCE((SELECT c.pending FROM ticket_capacity_counters c WHERE c.ticket_id = tickets.id), 0)',
    );
    await queryRunner.dropTable('ticket_capacity_counters');
  }
}
