import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The count scope of what tickets have left (capacity counters and pools), apart from the tickets
 * themselves: a sale no longer renews the generation of every ticket list's total.
 */
export class TicketStockCountScope1764895000000 implements MigrationInterface {
  name = 'TicketStockCountScope1764895000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`INSERT INTO cache_generations (name, generation) VALUES ('ticket_stock', 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM cache_generations WHERE name = 'ticket_stock'`);
  }
}
