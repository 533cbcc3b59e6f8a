import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable } from '../migration-helpers';

/** One row per count scope: the generation that committed writes renew (src/common/caching/count-cache.ts). */
export class CreateCountGenerations1764400000000 implements MigrationInterface {
  name = 'CreateCountGenerations1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'cache_generations',
        columns: [
          { name: 'name', type: 'varchar', length: '32', isPrimary: true },
          { name: 'generation', type: 'bigint', isNullable: false, default: 0 },
        ],
      }),
    );
    await queryRunner.query(`INSERT INTO cache_generations (name, generation) VALUES ('events', 0), ('tickets', 0), ('attendees', 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('cache_generations', true);
  }
}
