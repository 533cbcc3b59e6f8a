import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTrigger, isMysql, Trigger } from '../migration-helpers';

/**
 * The events list's read model (see src/events/event-listings.ts): one row per listed event and
 * list dimension value, keyed in the list's order, so that a page of any filter is one ordered
 * range of the primary key. Triggers keep it inside the transaction of every write to what it
 * copies (events, their links, terms, venues, organizers), whichever code makes the write; the
 * rows of a whole calendar are filled here set-based, one INSERT … SELECT per dimension.
 */

/** Dimension codes, as in EventListingDimension. */
const ALL = 0;
export const CATEGORY = 1;
const TAG = 2;
const VENUE = 3;
const ORGANIZER = 4;
const FEATURED = 5;
const GEOLOC = 6;

export const COLUMNS = 'dim, value, status, start_utc, published_at, event_id, end_utc, author_id';
export const EVENT_VALUES = 'e.status, e.start_utc, e.published_at, e.id, e.end_utc, e.author_id';
export const LISTED = 'e.hide_from_listings = 0';

/** A venue of event `e` with both coordinates (the `geoloc` filter), other than `except` if given. */
function locatedVenue(except?: string): string {
  return (
    'EXISTS (SELECT 1 FROM event_venue_links gvl INNER JOIN venues gv ON gv.id = gvl.venue_id ' +
    `WHERE gvl.event_id = e.id AND gv.geo_lat IS NOT NULL AND gv.geo_lng IS NOT NULL${except ? ` AND gv.id <> ${except}` : ''})`
  );
}

/**
 * SELECTs of every dimension's rows for the events `e` that `where` keeps. `categoryRows` selects the
 * category dimension's (a later migration lists an event under its categories' ancestors too).
 */
export function dimensionSelects(where: string, categoryRows: (where: string) => string = directCategoryRows): string[] {
  const links = (dim: number, table: string, column: string) =>
    `SELECT ${dim}, l.${column}, ${EVENT_VALUES} FROM ${table} l INNER JOIN events e ON e.id = l.event_id WHERE ${LISTED} AND ${where}`;
  return [
    // Named as the read model's columns: a UNION's columns take the first SELECT's names.
    `SELECT ${ALL} AS dim, 0 AS value, e.status AS status, e.start_utc AS start_utc, e.published_at AS published_at, e.id AS event_id, e.end_utc AS end_utc, e.author_id AS author_id FROM events e WHERE ${LISTED} AND ${where}`,
    categoryRows(where),
    links(TAG, 'event_tag_links', 'tag_id'),
    links(VENUE, 'event_venue_links', 'venue_id'),
    links(ORGANIZER, 'event_organizer_links', 'organizer_id'),
    `SELECT ${FEATURED}, CASE WHEN e.featured = 1 THEN 1 ELSE 0 END, ${EVENT_VALUES} FROM events e WHERE ${LISTED} AND ${where}`,
    `SELECT ${GEOLOC}, 0, ${EVENT_VALUES} FROM events e WHERE ${LISTED} AND ${where} AND ${locatedVenue()}`,
  ];
}

function directCategoryRows(where: string): string {
  return `SELECT ${CATEGORY}, l.category_id, ${EVENT_VALUES} FROM event_category_links l INNER JOIN events e ON e.id = l.event_id WHERE ${LISTED} AND ${where}`;
}

/** Every row the read model holds when it agrees with the tables it copies (for tests and checks). */
export function expectedEventListingsSql(): string {
  return dimensionSelects('1 = 1').join(' UNION ALL ');
}

/** Every row of one event (`id`), in one statement. */
export function eventRows(id: string, categoryRows?: (where: string) => string): string {
  return `INSERT INTO event_listings (${COLUMNS}) ${dimensionSelects(`e.id = ${id}`, categoryRows).join(' UNION ALL ')}`;
}

/** The row of one link, when its event is listed. */
function linkRow(dim: number, column: string): string {
  return `INSERT INTO event_listings (${COLUMNS}) SELECT ${dim}, NEW.${column}, ${EVENT_VALUES} FROM events e WHERE e.id = NEW.event_id AND ${LISTED}`;
}

function dropLinkRow(dim: number, column: string): string {
  return `DELETE FROM event_listings WHERE event_id = OLD.event_id AND dim = ${dim} AND value = OLD.${column}`;
}

/** The `geoloc` row of one event (`id`), again from its venues (without venue `except`). */
function geolocRow(id: string, except?: string): string[] {
  return [
    `DELETE FROM event_listings WHERE event_id = ${id} AND dim = ${GEOLOC}`,
    `INSERT INTO event_listings (${COLUMNS}) SELECT ${GEOLOC}, 0, ${EVENT_VALUES} FROM events e WHERE e.id = ${id} AND ${LISTED} AND ${locatedVenue(except)}`,
  ];
}

/** The `geoloc` rows of every event linked to venue `venue` (without that venue when `except`). */
function venueGeolocRows(mysql: boolean, venue: string, except: boolean): string[] {
  const remove = mysql
    ? `DELETE l FROM event_listings l INNER JOIN event_venue_links vl ON vl.event_id = l.event_id WHERE vl.venue_id = ${venue} AND l.dim = ${GEOLOC}`
    : `DELETE FROM event_listings WHERE dim = ${GEOLOC} AND event_id IN (SELECT event_id FROM event_venue_links WHERE venue_id = ${venue})`;
  return [
    remove,
    `INSERT INTO event_listings (${COLUMNS}) SELECT ${GEOLOC}, 0, ${EVENT_VALUES} FROM event_venue_links vl INNER JOIN events e ON e.id = vl.event_id ` +
      `WHERE vl.venue_id = ${venue} AND ${LISTED} AND ${locatedVenue(except ? venue : undefined)}`,
  ];
}

export const EVENT_COLUMNS = ['status', 'start_utc', 'end_utc', 'published_at', 'author_id', 'hide_from_listings', 'featured'];

export function triggers(mysql: boolean): Trigger[] {
  const changed = (columns: string[]) =>
    columns.map((column) => (mysql ? `NOT (OLD.${column} <=> NEW.${column})` : `OLD.${column} IS NOT NEW.${column}`)).join(' OR ');
  const linkTriggers = (
    prefix: string,
    table: string,
    dim: number,
    column: string,
    extra: (event: string) => string[] = () => [],
  ): Trigger[] => [
    { name: `TRG_${prefix}_insert_listings`, timing: `AFTER INSERT ON ${table}`, body: [linkRow(dim, column), ...extra('NEW.event_id')] },
    {
      name: `TRG_${prefix}_delete_listings`,
      timing: `AFTER DELETE ON ${table}`,
      body: [dropLinkRow(dim, column), ...extra('OLD.event_id')],
    },
  ];
  return [
    { name: 'TRG_events_insert_listings', timing: 'AFTER INSERT ON events', body: [eventRows('NEW.id')] },
    {
      name: 'TRG_events_update_listings',
      timing: 'AFTER UPDATE ON events',
      columns: EVENT_COLUMNS,
      when: changed([...EVENT_COLUMNS, 'id']),
      body: ['DELETE FROM event_listings WHERE event_id = OLD.id', eventRows('NEW.id')],
    },
    { name: 'TRG_events_delete_listings', timing: 'AFTER DELETE ON events', body: ['DELETE FROM event_listings WHERE event_id = OLD.id'] },
    ...linkTriggers('ecl', 'event_category_links', CATEGORY, 'category_id'),
    ...linkTriggers('etl', 'event_tag_links', TAG, 'tag_id'),
    ...linkTriggers('evl', 'event_venue_links', VENUE, 'venue_id', (event) => geolocRow(event)),
    ...linkTriggers('eol', 'event_organizer_links', ORGANIZER, 'organizer_id'),
    // Deleting a term, venue or organizer deletes its links by foreign key, which fires no trigger on MariaDB.
    {
      name: 'TRG_event_categories_delete_listings',
      timing: 'BEFORE DELETE ON event_categories',
      body: [`DELETE FROM event_listings WHERE dim = ${CATEGORY} AND value = OLD.id`],
    },
    {
      name: 'TRG_event_tags_delete_listings',
      timing: 'BEFORE DELETE ON event_tags',
      body: [`DELETE FROM event_listings WHERE dim = ${TAG} AND value = OLD.id`],
    },
    {
      name: 'TRG_organizers_delete_listings',
      timing: 'BEFORE DELETE ON organizers',
      body: [`DELETE FROM event_listings WHERE dim = ${ORGANIZER} AND value = OLD.id`],
    },
    {
      name: 'TRG_venues_delete_listings',
      timing: 'BEFORE DELETE ON venues',
      body: [`DELETE FROM event_listings WHERE dim = ${VENUE} AND value = OLD.id`, ...venueGeolocRows(mysql, 'OLD.id', true)],
    },
    {
      name: 'TRG_venues_update_listings',
      timing: 'AFTER UPDATE ON venues',
      columns: ['geo_lat', 'geo_lng'],
      when: changed(['geo_lat', 'geo_lng']),
      body: venueGeolocRows(mysql, 'NEW.id', false),
    },
  ];
}

/**
 * Fills the empty read model from the tables it copies. On MariaDB one INSERT … SELECT into the
 * empty table, with unique and foreign key checks off for the statement, takes InnoDB's bulk path
 * (it sorts the rows and builds the primary key page by page, with a single undo record): about
 * 40 % faster than one insert per dimension. The rows are unique by construction (every link
 * table's key is in the read model's key), so the unique check has nothing to find.
 */
async function backfill(queryRunner: QueryRunner, mysql: boolean): Promise<void> {
  if (!mysql) {
    for (const select of dimensionSelects('1 = 1')) await queryRunner.query(`INSERT INTO event_listings (${COLUMNS}) ${select}`);
    return;
  }
  const [previous] = (await queryRunner.query(
    'SELECT @@SESSION.unique_checks AS `unique`, @@SESSION.foreign_key_checks AS `foreign`',
  )) as Array<{
    unique: number;
    foreign: number;
  }>;
  await queryRunner.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  try {
    await queryRunner.query(`INSERT INTO event_listings (${COLUMNS}) ${expectedEventListingsSql()}`);
  } finally {
    await queryRunner.query(`SET SESSION unique_checks = ${Number(previous.unique)}, foreign_key_checks = ${Number(previous.foreign)}`);
  }
}

export class EventListings1764830000000 implements MigrationInterface {
  name = 'EventListings1764830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const table = mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : '';
    await queryRunner.query(
      `CREATE TABLE event_listings (
        dim smallint NOT NULL,
        value int NOT NULL,
        status varchar(20) NOT NULL,
        start_utc datetime NOT NULL,
        published_at datetime NOT NULL,
        event_id int NOT NULL,
        end_utc datetime NOT NULL,
        author_id int NULL,
        PRIMARY KEY (dim, value, status, start_utc, published_at, event_id)
      )${table}`,
    );
    await backfill(queryRunner, mysql);
    await queryRunner.query('CREATE INDEX IDX_event_listings_event ON event_listings (event_id, dim, value)');
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    for (const trigger of triggers(mysql)) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    await queryRunner.query('DROP TABLE event_listings');
  }
}
