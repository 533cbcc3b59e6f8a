import { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, createTrigger, dropColumns, isMysql, Trigger } from '../migration-helpers';
import { day, triggers as ledgerTriggers } from './1765040000001-SalesLedger';

const SOLD_AT_CHECKOUT = "NEW.order_status IN ('completed', 'yes')";
const SALE_TRANSITION =
  "OLD.status <> NEW.status AND ((OLD.status = 'pending' AND NEW.status = 'completed') OR (OLD.status = 'completed' AND NEW.status IN ('refunded', 'cancelled')))";

/** The sales triggers of SalesLedger, also counting the units sold with a coupon and what it took off. */
export function triggers(mysql: boolean): Trigger[] {
  const measure = (status: string) => `CASE WHEN NEW.status = '${status}' THEN COUNT(*) ELSE 0 END`;
  const amount = (status: string) => `CASE WHEN NEW.status = '${status}' THEN ROUND(SUM(a.price_paid) * 100) ELSE 0 END`;
  return [
    {
      name: 'TRG_attendees_insert_sales',
      timing: 'AFTER INSERT ON attendees',
      when: SOLD_AT_CHECKOUT,
      body: [
        'INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents, coupon_units, discount_cents) ' +
          `VALUES (NEW.event_id, NEW.ticket_id, ${day(mysql, 'NEW.created_at')}, 1, ROUND(NEW.price_paid * 100), ` +
          'CASE WHEN NEW.coupon_code IS NULL THEN 0 ELSE 1 END, ROUND(COALESCE(NEW.discount, 0) * 100))',
      ],
    },
    {
      name: 'TRG_orders_status_sales',
      timing: 'AFTER UPDATE ON orders',
      columns: ['status'],
      when: SALE_TRANSITION,
      body: [
        'INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents, refunded_units, refunded_cents, cancelled_units, cancelled_cents, coupon_units, discount_cents) ' +
          `SELECT a.event_id, a.ticket_id, ${day(mysql, 'NEW.updated_at')}, ${measure('completed')}, ${amount('completed')}, ` +
          `${measure('refunded')}, ${amount('refunded')}, ${measure('cancelled')}, ${amount('cancelled')}, ` +
          "CASE WHEN NEW.status = 'completed' THEN SUM(CASE WHEN a.coupon_code IS NULL THEN 0 ELSE 1 END) ELSE 0 END, " +
          "CASE WHEN NEW.status = 'completed' THEN ROUND(SUM(COALESCE(a.discount, 0)) * 100) ELSE 0 END " +
          'FROM attendees a WHERE a.order_id = NEW.id AND (a.rsvp_going IS NULL OR a.rsvp_going = 1) GROUP BY a.event_id, a.ticket_id',
      ],
    },
  ];
}

const REPLACED = ['TRG_attendees_insert_sales', 'TRG_orders_status_sales'];

/**
 * Coupons in the sales ledger (docs/reports.md): `coupon_units` (units sold with a coupon) and
 * `discount_cents` (what coupons took off them), counted when the units are sold, on the sale's day,
 * by the same triggers that count the sale, so reports keep reading no attendee. Sales made before
 * are written in once from the attendees (each carries its coupon code and discount).
 */
export class CouponSales1765060000000 implements MigrationInterface {
  name = 'CouponSales1765060000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    for (const table of ['sales_ledger', 'sales_daily']) {
      await addColumns(queryRunner, table, ['coupon_units int NOT NULL DEFAULT 0', 'discount_cents bigint NOT NULL DEFAULT 0']);
    }
    for (const name of REPLACED) await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
    const soldDay = day(mysql, 'COALESCE(o.completed_at, a.created_at)');
    await queryRunner.query(
      'INSERT INTO sales_ledger (event_id, ticket_id, day, coupon_units, discount_cents) ' +
        `SELECT a.event_id, a.ticket_id, ${soldDay}, COUNT(*), ROUND(SUM(a.discount) * 100) ` +
        'FROM attendees a INNER JOIN orders o ON o.id = a.order_id WHERE (a.rsvp_going IS NULL OR a.rsvp_going = 1) ' +
        "AND (o.completed_at IS NOT NULL OR a.order_status IN ('completed', 'yes')) AND a.coupon_code IS NOT NULL " +
        `GROUP BY a.event_id, a.ticket_id, ${soldDay}`,
    );
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    for (const name of REPLACED) await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
    // The coupon-only rows written by up carry no other measure.
    await queryRunner.query(
      'DELETE FROM sales_ledger WHERE sold_units = 0 AND sold_cents = 0 AND refunded_units = 0 AND refunded_cents = 0 ' +
        'AND cancelled_units = 0 AND cancelled_cents = 0 AND checked_in = 0',
    );
    for (const table of ['sales_ledger', 'sales_daily']) await dropColumns(queryRunner, table, ['coupon_units', 'discount_cents']);
    for (const trigger of ledgerTriggers(mysql).filter((one) => REPLACED.includes(one.name))) {
      await queryRunner.query(createTrigger(mysql, trigger));
    }
  }
}
