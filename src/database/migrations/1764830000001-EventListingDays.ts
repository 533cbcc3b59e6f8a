import { MigrationInterface, QueryRunner } from 'typeorm';
import { isMysql } from '../migration-helpers';

/**
 * Counters over the events list's read model: per dimension value, status and day (UTC date of
 * the start), how many rows start that day and the longest of their durations (an upper bound:
 * it never shrinks). A list's total then sums at most one row per day of its window instead of
 * counting every listed event (src/events/event-listings.ts). Triggers on event_listings keep
 * them in the transaction of the write that changed the read model.
 */
export class EventListingDays1764830000001 implements MigrationInterface {
  name = 'EventListingDays1764830000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const duration = (row: string) =>
      mysql
        ? `TIMESTAMPDIFF(SECOND, ${row}.start_utc, ${row}.end_utc)`
        : `CAST(ROUND((julianday(${row}.end_utc) - julianday(${row}.start_utc)) * 86400) AS INTEGER)`;
    await queryRunner.query(
      `CREATE TABLE event_listing_days (
        dim smallint NOT NULL,
        value int NOT NULL,
        status varchar(20) NOT NULL,
        day date NOT NULL,
        events int NOT NULL,
        longest int NOT NULL,
        PRIMARY KEY (dim, value, status, day)
      )${mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : ''}`,
    );
    // On MariaDB a GROUP BY of the day sorts every row through a temporary table; read in the
    // primary key's order, the rows of one counter come together and each adds to the last one written.
    await queryRunner.query(
      mysql
        ? `INSERT INTO event_listing_days (dim, value, status, day, events, longest)
           SELECT l.dim, l.value, l.status, DATE(l.start_utc), 1, ${duration('l')} FROM event_listings l ORDER BY l.dim, l.value, l.status, l.start_utc
           ON DUPLICATE KEY UPDATE events = events + 1, longest = GREATEST(longest, VALUES(longest))`
        : `INSERT INTO event_listing_days (dim, value, status, day, events, longest)
           SELECT l.dim, l.value, l.status, DATE(l.start_utc), COUNT(*), MAX(${duration('l')}) FROM event_listings l GROUP BY l.dim, l.value, l.status, DATE(l.start_utc)`,
    );
    const values = `NEW.dim, NEW.value, NEW.status, DATE(NEW.start_utc), 1, ${duration('NEW')}`;
    const upsert = mysql
      ? `INSERT INTO event_listing_days (dim, value, status, day, events, longest) VALUES (${values}) ON DUPLICATE KEY UPDATE events = events + 1, longest = GREATEST(longest, VALUES(longest));`
      : `INSERT INTO event_listing_days (dim, value, status, day, events, longest) VALUES (${values}) ON CONFLICT (dim, value, status, day) DO UPDATE SET events = events + 1, longest = MAX(longest, excluded.longest);`;
    const decrement =
      'UPDATE event_listing_days SET events = events - 1 WHERE dim = OLD.dim AND value = OLD.value AND status = OLD.status AND day = DATE(OLD.start_utc);';
    await queryRunner.query(
      `CREATE TRIGGER TRG_event_listings_insert_days AFTER INSERT ON event_listings FOR EACH ROW BEGIN ${upsert} END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER TRG_event_listings_delete_days AFTER DELETE ON event_listings FOR EACH ROW BEGIN ${decrement} END`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER IF EXISTS TRG_event_listings_insert_days');
    await queryRunner.query('DROP TRIGGER IF EXISTS TRG_event_listings_delete_days');
    await queryRunner.query('DROP TABLE event_listing_days');
  }
}
