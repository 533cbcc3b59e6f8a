import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, dropColumns, isMysql } from '../migration-helpers';

/**
 * Issue 39, the door: a scan can be annulled (`annulled_at` and who did it: the device or the user),
 * and a scan remembers a digest of the request that carried its nonce (`request_hash`), so that the
 * same nonce with another body is refused instead of answered with the first scan's answer. Rows
 * written before have no digest: a retry of them is replayed as before.
 */
export class CheckinAnnulments1765130000000 implements MigrationInterface {
  name = 'CheckinAnnulments1765130000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const datetime = isMysql(queryRunner) ? 'DATETIME(3)' : 'datetime';
    await addColumns(queryRunner, 'checkins', [
      `annulled_at ${datetime} NULL`,
      'annulled_device_id int NULL',
      'annulled_user_id int NULL',
      'request_hash varchar(64) NULL',
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropColumns(queryRunner, 'checkins', ['request_hash', 'annulled_user_id', 'annulled_device_id', 'annulled_at']);
  }
}
