import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTrigger, isMysql, Trigger } from '../migration-helpers';

/**
 * `events.document_version`: a counter that moves, in the writing transaction, whenever anything an
 * event's response shows changes, whoever writes it: the event row, its links, a linked venue,
 * organizer or term, its tickets' providers, its series. The cached event documents are keyed by
 * it (src/events/event-documents.ts), so a write committed by any instance changes the key every
 * instance reads with its page. Counters that change constantly (stored term counts, ticket
 * capacity and sales) do not move it: the responses read them per request. Reverted and applied
 * again, the versions start over: restart the instances then, or their caches may hold a version
 * the counter reaches again.
 */

const bump = (eventId: string) => `UPDATE events SET document_version = document_version + 1 WHERE id = ${eventId}`;

/** Every event linked through `table` to the row `id` of its `column`. */
const bumpLinked = (table: string, column: string, id: string) =>
  `UPDATE events SET document_version = document_version + 1 WHERE id IN (SELECT event_id FROM ${table} WHERE ${column} = ${id})`;

function triggers(mysql: boolean): Trigger[] {
  const changed = (columns: string[]) =>
    columns.map((column) => (mysql ? `NOT (OLD.${column} <=> NEW.${column})` : `OLD.${column} IS NOT NEW.${column}`)).join(' OR ');
  /** Insert, delete and update of a table whose rows belong to one event (`event_id`). */
  const rowsOfEvent = (prefix: string, table: string, columns: string[]): Trigger[] => [
    { name: `TRG_${prefix}_insert_document`, timing: `AFTER INSERT ON ${table}`, body: [bump('NEW.event_id')] },
    { name: `TRG_${prefix}_delete_document`, timing: `AFTER DELETE ON ${table}`, body: [bump('OLD.event_id')] },
    {
      name: `TRG_${prefix}_update_document`,
      timing: `AFTER UPDATE ON ${table}`,
      columns,
      when: changed(columns),
      body: [bump('OLD.event_id'), bump('NEW.event_id')],
    },
  ];
  /** Update and delete of a row events link to; deleting it deletes the links by foreign key, which fires no trigger on MariaDB. */
  const linkedRows = (prefix: string, table: string, link: string, column: string, columns?: string[]): Trigger[] => [
    {
      name: `TRG_${prefix}_update_document`,
      timing: `AFTER UPDATE ON ${table}`,
      columns,
      when: columns ? changed(columns) : undefined,
      body: [bumpLinked(link, column, 'NEW.id')],
    },
    { name: `TRG_${prefix}_delete_document`, timing: `BEFORE DELETE ON ${table}`, body: [bumpLinked(link, column, 'OLD.id')] },
  ];
  return [
    // MariaDB cannot update the table a trigger fires on: the row's own update moves it before it is written.
    mysql
      ? {
          name: 'TRG_events_update_document',
          timing: 'BEFORE UPDATE ON events',
          body: ['SET NEW.document_version = OLD.document_version + 1'],
        }
      : {
          name: 'TRG_events_update_document',
          timing: 'AFTER UPDATE ON events',
          when: 'NEW.document_version = OLD.document_version',
          body: ['UPDATE events SET document_version = OLD.document_version + 1 WHERE id = NEW.id'],
        },
    ...rowsOfEvent('ecl', 'event_category_links', ['event_id', 'category_id']),
    ...rowsOfEvent('etl', 'event_tag_links', ['event_id', 'tag_id']),
    ...rowsOfEvent('evl', 'event_venue_links', ['event_id', 'venue_id', 'position']),
    ...rowsOfEvent('eol', 'event_organizer_links', ['event_id', 'organizer_id', 'position']),
    // `ticketed` shows the providers; the offers of a single event are read per request.
    ...rowsOfEvent('tickets', 'tickets', ['event_id', 'provider']),
    ...rowsOfEvent('eso', 'event_series_occurrences', ['event_id', 'series_id']),
    // Venues and organizers are shown whole and rarely written: any update moves their events.
    ...linkedRows('venues', 'venues', 'event_venue_links', 'venue_id'),
    ...linkedRows('organizers', 'organizers', 'event_organizer_links', 'organizer_id'),
    // Not on the stored count of published events, which moves with every event published.
    ...linkedRows('event_categories', 'event_categories', 'event_category_links', 'category_id', [
      'name',
      'slug',
      'description',
      'parent_id',
    ]),
    ...linkedRows('event_tags', 'event_tags', 'event_tag_links', 'tag_id', ['name', 'slug', 'description']),
    ...linkedRows('event_series', 'event_series', 'event_series_occurrences', 'series_id', ['rrule', 'rdates', 'exdates']),
  ];
}

export class EventDocumentVersions1764910000000 implements MigrationInterface {
  name = 'EventDocumentVersions1764910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    // ALTER TABLE itself: TypeORM rebuilds a SQLite table to change its columns, which drops its triggers.
    await queryRunner.query('ALTER TABLE events ADD COLUMN document_version int NOT NULL DEFAULT 1');
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Versions start again from the column's default: documents stored under the old ones would match again.
    if (await queryRunner.hasTable('event_documents')) await queryRunner.query('DELETE FROM event_documents');
    const mysql = isMysql(queryRunner);
    for (const trigger of triggers(mysql)) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    await queryRunner.query('ALTER TABLE events DROP COLUMN document_version');
  }
}
