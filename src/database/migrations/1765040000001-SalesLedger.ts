import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, createTrigger, idColumn, isMysql, Trigger } from '../migration-helpers';

/** The UTC day (`YYYY-MM-DD`) of a DATETIME stored in UTC. */
export function day(mysql: boolean, expression: string): string {
  return mysql ? `DATE_FORMAT(${expression}, '%Y-%m-%d')` : `substr(${expression}, 1, 10)`;
}

const SOLD_AT_CHECKOUT = "NEW.order_status IN ('completed', 'yes')";
const SALE_TRANSITION =
  "OLD.status <> NEW.status AND ((OLD.status = 'pending' AND NEW.status = 'completed') OR (OLD.status = 'completed' AND NEW.status IN ('refunded', 'cancelled')))";

export function triggers(mysql: boolean): Trigger[] {
  const measure = (status: string) => `CASE WHEN NEW.status = '${status}' THEN COUNT(*) ELSE 0 END`;
  const amount = (status: string) => `CASE WHEN NEW.status = '${status}' THEN ROUND(SUM(a.price_paid) * 100) ELSE 0 END`;
  return [
    {
      // Free orders and RSVP "going" answers are sold when checked out.
      name: 'TRG_attendees_insert_sales',
      timing: 'AFTER INSERT ON attendees',
      when: SOLD_AT_CHECKOUT,
      body: [
        `INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents) VALUES (NEW.event_id, NEW.ticket_id, ${day(mysql, 'NEW.created_at')}, 1, ROUND(NEW.price_paid * 100))`,
      ],
    },
    {
      // Paid, refunded or cancelled after being sold: every attendee of the order that holds a unit, on the day of the change.
      name: 'TRG_orders_status_sales',
      timing: 'AFTER UPDATE ON orders',
      columns: ['status'],
      when: SALE_TRANSITION,
      body: [
        'INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents, refunded_units, refunded_cents, cancelled_units, cancelled_cents) ' +
          `SELECT a.event_id, a.ticket_id, ${day(mysql, 'NEW.updated_at')}, ${measure('completed')}, ${amount('completed')}, ` +
          `${measure('refunded')}, ${amount('refunded')}, ${measure('cancelled')}, ${amount('cancelled')} ` +
          'FROM attendees a WHERE a.order_id = NEW.id AND (a.rsvp_going IS NULL OR a.rsvp_going = 1) GROUP BY a.event_id, a.ticket_id',
      ],
    },
    {
      // Check-ins count on the day they happened; an undone one is taken back from that day.
      name: 'TRG_attendees_checkin_sales',
      timing: 'AFTER UPDATE ON attendees',
      columns: ['checked_in'],
      when: 'OLD.checked_in <> NEW.checked_in',
      body: [
        'INSERT INTO sales_ledger (event_id, ticket_id, day, checked_in) VALUES (NEW.event_id, NEW.ticket_id, ' +
          `${day(mysql, 'COALESCE(CASE WHEN NEW.checked_in = 1 THEN NEW.checked_in_at ELSE OLD.checked_in_at END, NEW.updated_at)')}, ` +
          'CASE WHEN NEW.checked_in = 1 THEN 1 ELSE -1 END)',
      ],
    },
  ];
}

/**
 * `sales_ledger`: what sold, was refunded, cancelled and checked in, per event, ticket and UTC day,
 * as the sum of its rows (plus `sales_daily`, where they are folded to). The writing transactions add rows through triggers (checkout inserting
 * attendees, an order's status changing, an attendee's check-in flag changing), whoever writes:
 * insert-only rows that no other transaction waits for, so a sale's checkouts never queue on a
 * report counter, and exact at every commit. src/reports/sales-ledger.ts folds them every few seconds
 * into `sales_daily`, one row per (ticket, day), so that a report reads (tickets × days) rows plus
 * the few not yet folded, never the attendees. Existing sales are written in once from the attendees and their orders.
 */
export class SalesLedger1765040000001 implements MigrationInterface {
  name = 'SalesLedger1765040000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const count = { type: 'int', default: 0 } as const;
    const cents = { type: 'bigint', default: 0 } as const;
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'sales_ledger',
        columns: [
          idColumn,
          { name: 'event_id', type: 'int' },
          { name: 'ticket_id', type: 'int' },
          { name: 'day', type: 'varchar', length: '10' },
          { name: 'sold_units', ...count },
          { name: 'sold_cents', ...cents },
          { name: 'refunded_units', ...count },
          { name: 'refunded_cents', ...cents },
          { name: 'cancelled_units', ...count },
          { name: 'cancelled_cents', ...cents },
          { name: 'checked_in', ...count },
        ],
        indices: [{ name: 'IDX_sales_ledger_event_day', columnNames: ['event_id', 'day'] }],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'sales_daily',
        columns: [
          { name: 'ticket_id', type: 'int', isPrimary: true },
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          { name: 'event_id', type: 'int' },
          { name: 'sold_units', ...count },
          { name: 'sold_cents', ...cents },
          { name: 'refunded_units', ...count },
          { name: 'refunded_cents', ...cents },
          { name: 'cancelled_units', ...count },
          { name: 'cancelled_cents', ...cents },
          { name: 'checked_in', ...count },
        ],
        indices: [{ name: 'IDX_sales_daily_event_day', columnNames: ['event_id', 'day'] }],
      }),
    );
    const holds = '(a.rsvp_going IS NULL OR a.rsvp_going = 1)';
    // Sold: free orders on their attendee's creation day, paid ones on completion.
    await queryRunner.query(
      'INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents) ' +
        `SELECT a.event_id, a.ticket_id, ${day(mysql, 'COALESCE(o.completed_at, a.created_at)')}, COUNT(*), ROUND(SUM(a.price_paid) * 100) ` +
        `FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE ${holds} AND (o.completed_at IS NOT NULL OR a.order_status IN ('completed', 'yes')) ` +
        `GROUP BY a.event_id, a.ticket_id, ${day(mysql, 'COALESCE(o.completed_at, a.created_at)')}`,
    );
    for (const status of ['refunded', 'cancelled']) {
      await queryRunner.query(
        `INSERT INTO sales_ledger (event_id, ticket_id, day, ${status}_units, ${status}_cents) ` +
          `SELECT a.event_id, a.ticket_id, ${day(mysql, 'o.updated_at')}, COUNT(*), ROUND(SUM(a.price_paid) * 100) ` +
          `FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE ${holds} AND o.status = '${status}' AND o.completed_at IS NOT NULL ` +
          `GROUP BY a.event_id, a.ticket_id, ${day(mysql, 'o.updated_at')}`,
      );
    }
    await queryRunner.query(
      'INSERT INTO sales_ledger (event_id, ticket_id, day, checked_in) ' +
        `SELECT a.event_id, a.ticket_id, ${day(mysql, 'COALESCE(a.checked_in_at, a.updated_at)')}, COUNT(*) FROM attendees a ` +
        `WHERE a.checked_in = 1 GROUP BY a.event_id, a.ticket_id, ${day(mysql, 'COALESCE(a.checked_in_at, a.updated_at)')}`,
    );
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of triggers(isMysql(queryRunner))) await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name}`);
    await queryRunner.dropTable('sales_daily', true);
    await queryRunner.dropTable('sales_ledger', true);
  }
}
