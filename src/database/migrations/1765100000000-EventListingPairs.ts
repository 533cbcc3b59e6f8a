import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTrigger, isMysql, Trigger } from '../migration-helpers';

/**
 * Totals of two-value filters (`categories=3,7`, `tags=1,2`, `venue=4,5`, `organizer=6,7`) from
 * counters: an event listed under both values counts once, so the list's total is |A| + |B| − |A ∩ B|,
 * and the last term needs the events listed under both. `event_listing_pairs` holds one row per
 * listed event and pair of its values of one dimension (categories, with their ancestors, tags,
 * venues and organizers), keyed in the list's order
 * like the read model; `event_listing_pair_days` counts them per day as event_listing_days counts
 * the read model's rows. Triggers on event_listings keep both in the transaction of the write.
 */

/** The dimensions whose filters take several values that one event may share: categories, tags, venues, organizers. */
export const PAIRED_DIMS = [1, 2, 3, 4];

const PAIR_COLUMNS = 'dim, low, high, status, start_utc, published_at, event_id, end_utc, author_id';

/** Every pair row the table holds when it agrees with the read model (for tests and checks). */
export function expectedEventListingPairsSql(): string {
  return (
    `SELECT a.dim AS dim, a.value AS low, b.value AS high, a.status AS status, a.start_utc AS start_utc, a.published_at AS published_at, ` +
    `a.event_id AS event_id, a.end_utc AS end_utc, a.author_id AS author_id FROM event_listings a ` +
    `INNER JOIN event_listings b ON b.event_id = a.event_id AND b.dim = a.dim AND b.value > a.value WHERE a.dim IN (${PAIRED_DIMS.join(', ')})`
  );
}

function duration(mysql: boolean, row: string): string {
  return mysql
    ? `TIMESTAMPDIFF(SECOND, ${row}.start_utc, ${row}.end_utc)`
    : `CAST(ROUND((julianday(${row}.end_utc) - julianday(${row}.start_utc)) * 86400) AS INTEGER)`;
}

function triggers(mysql: boolean): Trigger[] {
  const paired = (row: string) => `${row}.dim IN (${PAIRED_DIMS.join(', ')})`;
  const low = 'CASE WHEN o.value < NEW.value THEN o.value ELSE NEW.value END';
  const high = 'CASE WHEN o.value < NEW.value THEN NEW.value ELSE o.value END';
  const dayValues = `NEW.dim, NEW.low, NEW.high, NEW.status, DATE(NEW.start_utc), 1, ${duration(mysql, 'NEW')}`;
  const dayColumns = 'dim, low, high, status, day, events, longest';
  return [
    {
      // Rows of one event come one at a time (each write deletes and inserts them row by row): the
      // new row pairs with each of the event's rows of the dimension already there.
      name: 'TRG_event_listings_insert_pairs',
      timing: 'AFTER INSERT ON event_listings',
      when: paired('NEW'),
      body: [
        `INSERT INTO event_listing_pairs (${PAIR_COLUMNS}) SELECT NEW.dim, ${low}, ${high}, NEW.status, NEW.start_utc, NEW.published_at, ` +
          `NEW.event_id, NEW.end_utc, NEW.author_id FROM event_listings o WHERE o.event_id = NEW.event_id AND o.dim = NEW.dim AND o.value <> NEW.value`,
      ],
    },
    {
      name: 'TRG_event_listings_delete_pairs',
      timing: 'AFTER DELETE ON event_listings',
      when: paired('OLD'),
      body: ['DELETE FROM event_listing_pairs WHERE event_id = OLD.event_id AND dim = OLD.dim AND (low = OLD.value OR high = OLD.value)'],
    },
    {
      name: 'TRG_event_listing_pairs_insert_days',
      timing: 'AFTER INSERT ON event_listing_pairs',
      body: [
        mysql
          ? `INSERT INTO event_listing_pair_days (${dayColumns}) VALUES (${dayValues}) ON DUPLICATE KEY UPDATE events = events + 1, longest = GREATEST(longest, VALUES(longest))`
          : `INSERT INTO event_listing_pair_days (${dayColumns}) VALUES (${dayValues}) ON CONFLICT (dim, low, high, status, day) DO UPDATE SET events = events + 1, longest = MAX(longest, excluded.longest)`,
      ],
    },
    {
      name: 'TRG_event_listing_pairs_delete_days',
      timing: 'AFTER DELETE ON event_listing_pairs',
      body: [
        'UPDATE event_listing_pair_days SET events = events - 1 WHERE dim = OLD.dim AND low = OLD.low AND high = OLD.high AND status = OLD.status AND day = DATE(OLD.start_utc)',
      ],
    },
  ];
}

export class EventListingPairs1765100000000 implements MigrationInterface {
  name = 'EventListingPairs1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const table = mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : '';
    await queryRunner.query(
      `CREATE TABLE event_listing_pairs (
        dim smallint NOT NULL,
        low int NOT NULL,
        high int NOT NULL,
        status varchar(20) NOT NULL,
        start_utc datetime NOT NULL,
        published_at datetime NOT NULL,
        event_id int NOT NULL,
        end_utc datetime NOT NULL,
        author_id int NULL,
        PRIMARY KEY (dim, low, high, status, start_utc, published_at, event_id)
      )${table}`,
    );
    await queryRunner.query(
      `CREATE TABLE event_listing_pair_days (
        dim smallint NOT NULL,
        low int NOT NULL,
        high int NOT NULL,
        status varchar(20) NOT NULL,
        day date NOT NULL,
        events int NOT NULL,
        longest int NOT NULL,
        PRIMARY KEY (dim, low, high, status, day)
      )${table}`,
    );
    await queryRunner.query(`INSERT INTO event_listing_pairs (${PAIR_COLUMNS}) ${expectedEventListingPairsSql()}`);
    await queryRunner.query('CREATE INDEX IDX_event_listing_pairs_event ON event_listing_pairs (event_id, dim)');
    await queryRunner.query(
      mysql
        ? `INSERT INTO event_listing_pair_days (dim, low, high, status, day, events, longest)
           SELECT p.dim, p.low, p.high, p.status, DATE(p.start_utc), 1, ${duration(true, 'p')} FROM event_listing_pairs p ORDER BY p.dim, p.low, p.high, p.status, p.start_utc
           ON DUPLICATE KEY UPDATE events = events + 1, longest = GREATEST(longest, VALUES(longest))`
        : `INSERT INTO event_listing_pair_days (dim, low, high, status, day, events, longest)
           SELECT p.dim, p.low, p.high, p.status, DATE(p.start_utc), COUNT(*), MAX(${duration(false, 'p')}) FROM event_listing_pairs p GROUP BY p.dim, p.low, p.high, p.status, DATE(p.start_utc)`,
    );
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of triggers(isMysql(queryRunner))) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    await queryRunner.query('DROP TABLE event_listing_pair_days');
    await queryRunner.query('DROP TABLE event_listing_pairs');
  }
}
