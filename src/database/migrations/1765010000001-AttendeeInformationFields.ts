import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, dropColumns } from '../migration-helpers';

/**
 * Attendee questions (docs/attendee-questions.md): a ticket's registration fields, JSON, NULL when
 * it asks nothing (so `attendee_information_available` filters on IS NULL / IS NOT NULL).
 */
export class AttendeeInformationFields1765010000001 implements MigrationInterface {
  name = 'AttendeeInformationFields1765010000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumns(queryRunner, 'tickets', ['attendee_information_fields text NULL']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'tickets', ['attendee_information_fields']);
  }
}
