import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, timestampColumns } from '../migration-helpers';

/** Recurring events: the series and which events are its occurrences (src/series). */
export class CreateEventSeries1764880000000 implements MigrationInterface {
  name = 'CreateEventSeries1764880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'event_series',
        columns: [
          idColumn,
          { name: 'first_event_id', type: 'int', isNullable: true },
          { name: 'author_id', type: 'int', isNullable: false },
          { name: 'timezone', type: 'varchar', length: '64', isNullable: false },
          { name: 'start_local', type: 'varchar', length: '19', isNullable: false },
          { name: 'duration_seconds', type: 'int', isNullable: false },
          { name: 'rrule', type: 'varchar', length: '500', isNullable: false },
          { name: 'rdates', type: 'text', isNullable: false },
          { name: 'exdates', type: 'text', isNullable: false },
          { name: 'template', type: 'text', isNullable: false },
          { name: 'expanded_until', type: 'datetime', isNullable: false },
          { name: 'exhausted', type: 'boolean', isNullable: false, default: false },
          { name: 'claimed_until', type: 'datetime', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [{ name: 'IDX_event_series_horizon', columnNames: ['exhausted', 'expanded_until'] }],
        foreignKeys: [
          {
            name: 'FK_event_series_first_event',
            columnNames: ['first_event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'event_series_occurrences',
        columns: [
          { name: 'event_id', type: 'int', isPrimary: true },
          { name: 'series_id', type: 'int', isNullable: false },
          { name: 'occurrence_local', type: 'varchar', length: '19', isNullable: false },
          { name: 'detached', type: 'boolean', isNullable: false, default: false },
        ],
        indices: [{ name: 'UQ_event_series_occurrences_date', columnNames: ['series_id', 'occurrence_local'], isUnique: true }],
        foreignKeys: [
          {
            name: 'FK_event_series_occurrences_event',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_event_series_occurrences_series',
            columnNames: ['series_id'],
            referencedTableName: 'event_series',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_series_occurrences', true);
    await queryRunner.dropTable('event_series', true);
  }
}
