import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTrigger, isMysql, Trigger } from '../migration-helpers';
import {
  CATEGORY,
  COLUMNS,
  dimensionSelects,
  EVENT_VALUES,
  eventRows,
  LISTED,
  triggers as directTriggers,
} from './1764830000000-EventListings';

/**
 * A category lists the events of its descendants too, as the original's category filter does
 * (WordPress's taxonomy queries include a hierarchical term's children). The events list's read
 * model lists an event under each of its categories and each of their ancestors, once, so that a
 * parent category's page is still one ordered range of the read model and its total still comes
 * from the day counters (src/events/event-listings.ts).
 *
 * `event_category_ancestors` is the hierarchy as a closure table: one row per category and each
 * of its ancestors, itself included. Every change to it is a few set-based statements without
 * recursion (SQLite allows none in a trigger), so triggers on `event_categories` keep it, and the
 * read model rows it decides, in the transaction of whichever write moves the hierarchy.
 */

/** Rows of the category dimension for the events `e` that `where` keeps: their categories and every ancestor, once. */
export function categoryTreeRows(where: string): string {
  return (
    `SELECT DISTINCT ${CATEGORY}, a.ancestor_id, ${EVENT_VALUES} FROM event_category_links l ` +
    `INNER JOIN event_category_ancestors a ON a.category_id = l.category_id INNER JOIN events e ON e.id = l.event_id WHERE ${LISTED} AND ${where}`
  );
}

/** Every row the read model holds when it agrees with the tables it copies (for tests and checks). */
export function expectedEventListingsSql(): string {
  return dimensionSelects('1 = 1', categoryTreeRows).join(' UNION ALL ');
}

/** The categories of the subtree of category `id` (itself included), as a derived table MySQL lets a statement read while it writes the closure. */
function subtree(id: string): string {
  return `(SELECT category_id FROM (SELECT category_id FROM event_category_ancestors WHERE ancestor_id = ${id}) subtree)`;
}

/** Events linked to a category of the subtree of category `id`. */
function eventsUnder(id: string): string {
  return `(SELECT l.event_id FROM event_category_links l INNER JOIN event_category_ancestors a ON a.category_id = l.category_id WHERE a.ancestor_id = ${id})`;
}

/** The category rows of the events under category `id`, again from the closure as it now stands. */
function refreshEventsUnder(id: string): string[] {
  return [
    `DELETE FROM event_listings WHERE dim = ${CATEGORY} AND event_id IN ${eventsUnder(id)}`,
    `INSERT INTO event_listings (${COLUMNS}) ${categoryTreeRows(`e.id IN ${eventsUnder(id)}`)}`,
  ];
}

function treeTriggers(mysql: boolean): Trigger[] {
  const direct = new Map(directTriggers(mysql).map((trigger) => [trigger.name, trigger]));
  const replaced = (name: string, body: string[]): Trigger => ({ ...direct.get(name)!, body });
  const parentChanged = mysql ? 'NOT (OLD.parent_id <=> NEW.parent_id)' : 'OLD.parent_id IS NOT NEW.parent_id';
  return [
    replaced('TRG_events_insert_listings', [eventRows('NEW.id', categoryTreeRows)]),
    replaced('TRG_events_update_listings', ['DELETE FROM event_listings WHERE event_id = OLD.id', eventRows('NEW.id', categoryTreeRows)]),
    replaced('TRG_ecl_insert_listings', [
      // The ancestors the event is not listed under yet (another of its categories may share them).
      `INSERT INTO event_listings (${COLUMNS}) SELECT ${CATEGORY}, a.ancestor_id, ${EVENT_VALUES} FROM event_category_ancestors a ` +
        `INNER JOIN events e ON e.id = NEW.event_id WHERE a.category_id = NEW.category_id AND ${LISTED} ` +
        `AND NOT EXISTS (SELECT 1 FROM event_listings held WHERE held.event_id = NEW.event_id AND held.dim = ${CATEGORY} AND held.value = a.ancestor_id)`,
    ]),
    replaced('TRG_ecl_delete_listings', [
      // The unlinked category's ancestors that none of the event's other categories has.
      `DELETE FROM event_listings WHERE event_id = OLD.event_id AND dim = ${CATEGORY} ` +
        `AND value IN (SELECT ancestor_id FROM event_category_ancestors WHERE category_id = OLD.category_id) ` +
        `AND value NOT IN (SELECT a.ancestor_id FROM event_category_links l INNER JOIN event_category_ancestors a ON a.category_id = l.category_id WHERE l.event_id = OLD.event_id)`,
    ]),
    {
      name: 'TRG_event_categories_insert_tree',
      timing: 'AFTER INSERT ON event_categories',
      body: [
        `INSERT INTO event_category_ancestors (category_id, ancestor_id) SELECT NEW.id, NEW.id UNION ALL ` +
          `SELECT NEW.id, ancestor_id FROM event_category_ancestors WHERE category_id = NEW.parent_id`,
      ],
    },
    {
      // The subtree moves: it leaves its old ancestors and takes the new parent's.
      name: 'TRG_event_categories_update_tree',
      timing: 'AFTER UPDATE ON event_categories',
      columns: ['parent_id'],
      when: parentChanged,
      body: [
        `DELETE FROM event_category_ancestors WHERE category_id IN ${subtree('NEW.id')} AND ancestor_id NOT IN ${subtree('NEW.id')}`,
        `INSERT INTO event_category_ancestors (category_id, ancestor_id) SELECT below.category_id, above.ancestor_id ` +
          `FROM event_category_ancestors below INNER JOIN event_category_ancestors above ON above.category_id = NEW.parent_id WHERE below.ancestor_id = NEW.id`,
        ...refreshEventsUnder('NEW.id'),
      ],
    },
    replaced('TRG_event_categories_delete_listings', [
      // Before the delete: its links (removed by foreign key, which fires no trigger on MariaDB) and
      // its place in the closure still tell which events list it. Its subtree keeps only the ancestors
      // inside it (the service hands the children to the parent first; a bare delete makes them roots).
      `DELETE FROM event_listings WHERE dim = ${CATEGORY} AND event_id IN ${eventsUnder('OLD.id')}`,
      `INSERT INTO event_listings (${COLUMNS}) ${categoryTreeRows(
        `e.id IN ${eventsUnder('OLD.id')} AND l.category_id <> OLD.id ` +
          `AND (l.category_id NOT IN ${subtree('OLD.id')} OR (a.ancestor_id IN ${subtree('OLD.id')} AND a.ancestor_id <> OLD.id))`,
      )}`,
      `DELETE FROM event_category_ancestors WHERE category_id IN ${subtree('OLD.id')} ` +
        `AND (category_id = OLD.id OR ancestor_id NOT IN ${subtree('OLD.id')} OR ancestor_id = OLD.id)`,
    ]),
  ];
}

/** The closure of the hierarchy: each category with itself and every ancestor. */
async function fillAncestors(queryRunner: QueryRunner): Promise<void> {
  const rows = (await queryRunner.query('SELECT id, parent_id FROM event_categories')) as Array<{
    id: number | string;
    parent_id: number | string | null;
  }>;
  const parentOf = new Map(rows.map((row) => [Number(row.id), row.parent_id === null ? null : Number(row.parent_id)]));
  const pairs: Array<[number, number]> = [];
  for (const id of parentOf.keys()) {
    const seen = new Set<number>();
    for (
      let ancestor: number | null | undefined = id;
      ancestor !== null && ancestor !== undefined && !seen.has(ancestor);
      ancestor = parentOf.get(ancestor)
    ) {
      seen.add(ancestor);
      pairs.push([id, ancestor]);
    }
  }
  for (let start = 0; start < pairs.length; start += 500) {
    const batch = pairs.slice(start, start + 500);
    await queryRunner.query(
      `INSERT INTO event_category_ancestors (category_id, ancestor_id) VALUES ${batch.map(() => '(?, ?)').join(', ')}`,
      batch.flat(),
    );
  }
}

async function replaceTriggers(queryRunner: QueryRunner, drop: Trigger[], create: Trigger[]): Promise<void> {
  const mysql = isMysql(queryRunner);
  for (const trigger of drop) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
  for (const trigger of create) await queryRunner.query(createTrigger(mysql, trigger));
}

export class CategoryTreeListings1765090000000 implements MigrationInterface {
  name = 'CategoryTreeListings1765090000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    await queryRunner.query(
      `CREATE TABLE event_category_ancestors (
        category_id int NOT NULL,
        ancestor_id int NOT NULL,
        PRIMARY KEY (category_id, ancestor_id)
      )${mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : ''}`,
    );
    await queryRunner.query('CREATE INDEX IDX_event_category_ancestors_ancestor ON event_category_ancestors (ancestor_id, category_id)');
    await fillAncestors(queryRunner);
    const tree = treeTriggers(mysql);
    await replaceTriggers(queryRunner, tree, tree);
    await queryRunner.query(`DELETE FROM event_listings WHERE dim = ${CATEGORY}`);
    await queryRunner.query(`INSERT INTO event_listings (${COLUMNS}) ${categoryTreeRows('1 = 1')}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const tree = treeTriggers(mysql);
    const treeNames = new Set(tree.map((trigger) => trigger.name));
    await replaceTriggers(
      queryRunner,
      tree,
      directTriggers(mysql).filter((trigger) => treeNames.has(trigger.name)),
    );
    await queryRunner.query(`DELETE FROM event_listings WHERE dim = ${CATEGORY}`);
    await queryRunner.query(`INSERT INTO event_listings (${COLUMNS}) ${dimensionSelects('1 = 1')[1]}`);
    await queryRunner.query('DROP TABLE event_category_ancestors');
  }
}
