import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable } from '../migration-helpers';

/** COUNT_GENERATION_STRIPES (src/common/caching/count-cache.ts) when this migration was written. */
const STRIPES = 16;

const STRIPED = new Table({
  name: 'cache_generations',
  columns: [
    { name: 'name', type: 'varchar', length: '32', isPrimary: true },
    { name: 'stripe', type: 'smallint', isPrimary: true },
    { name: 'generation', type: 'bigint', isNullable: false, default: 0 },
  ],
});

const SINGLE = new Table({
  name: 'cache_generations',
  columns: [
    { name: 'name', type: 'varchar', length: '32', isPrimary: true },
    { name: 'generation', type: 'bigint', isNullable: false, default: 0 },
  ],
});

/**
 * Each count scope's generation becomes the sum of STRIPES rows, and a write renews one of them
 * chosen at random: every checkout of a sale renewed the same row after its commit, so the buyers
 * queued on that row's lock, and on a Galera cluster two nodes renewing it at once failed
 * certification. A sum only grows, so it still changes with every committed write.
 */
export class StripedCountGenerations1764920000000 implements MigrationInterface {
  name = 'StripedCountGenerations1764920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE cache_generations RENAME TO cache_generations_single');
    await createPortableTable(queryRunner, STRIPED);
    await queryRunner.query(
      `INSERT INTO cache_generations (name, stripe, generation) SELECT name, 0, generation FROM cache_generations_single`,
    );
    for (let stripe = 1; stripe < STRIPES; stripe += 1) {
      await queryRunner.query(`INSERT INTO cache_generations (name, stripe, generation) SELECT name, ?, 0 FROM cache_generations_single`, [
        stripe,
      ]);
    }
    await queryRunner.dropTable('cache_generations_single');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE cache_generations RENAME TO cache_generations_striped');
    await createPortableTable(queryRunner, SINGLE);
    await queryRunner.query(
      `INSERT INTO cache_generations (name, generation) SELECT name, SUM(generation) FROM cache_generations_striped GROUP BY name`,
    );
    await queryRunner.dropTable('cache_generations_striped');
  }
}
