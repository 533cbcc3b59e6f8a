import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Whether an event shows its attendee list to the public (the original's per-event setting).
 * Off by default: attendee names are personal data.
 */
export class AddEventAttendeeListFlag1764300000000 implements MigrationInterface {
  name = 'AddEventAttendeeListFlag1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'events',
      new TableColumn({ name: 'show_attendee_list', type: 'boolean', isNullable: false, default: false }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('events', 'show_attendee_list');
  }
}
