import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Attendee questions (docs/attendee-questions.md): a ticket's registration fields, JSON, NULL when
 * it asks nothing (so `attendee_information_available` filters on IS NULL / IS NOT NULL).
 */
export class AttendeeInformationFields1765010000001 implements MigrationInterface {
  name = 'AttendeeInformationFields1765010000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('tickets', new TableColumn({ name: 'attendee_information_fields', type: 'text', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tickets', 'attendee_information_fields');
  }
}
