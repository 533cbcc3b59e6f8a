import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, dropColumns } from '../migration-helpers';

/**
 * The API token an export job was asked with (issue 43): the worker runs the job within that
 * token's event limits and masks personal data when the token says so, and fails it once the token
 * is revoked or expired.
 */
export class ExportJobTokens1766300000001 implements MigrationInterface {
  name = 'ExportJobTokens1766300000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await addColumns(queryRunner, 'export_jobs', ['token_id int NULL']);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'export_jobs', ['token_id']);
  }
}
