import { MigrationInterface, QueryRunner } from 'typeorm';
import { currencyExponent } from '../../common/money';
import { addColumns, createTrigger, dropColumns, isMysql, Trigger } from '../migration-helpers';
import { triggers as couponSalesTriggers } from './1765060000000-CouponSales';
import { day } from './1765040000001-SalesLedger';

const SOLD_AT_CHECKOUT = "NEW.order_status IN ('completed', 'yes')";
const SALE_TRANSITION =
  "OLD.status <> NEW.status AND ((OLD.status = 'pending' AND NEW.status = 'completed') OR (OLD.status = 'completed' AND NEW.status IN ('refunded', 'cancelled')))";

/** The sales triggers of CouponSales, summing the attendees' minor units as they are. */
export function triggers(mysql: boolean): Trigger[] {
  const measure = (status: string) => `CASE WHEN NEW.status = '${status}' THEN COUNT(*) ELSE 0 END`;
  const amount = (status: string) => `CASE WHEN NEW.status = '${status}' THEN SUM(a.price_paid_minor) ELSE 0 END`;
  return [
    {
      name: 'TRG_attendees_insert_sales',
      timing: 'AFTER INSERT ON attendees',
      when: SOLD_AT_CHECKOUT,
      body: [
        'INSERT INTO sales_ledger (event_id, ticket_id, day, sold_units, sold_cents, coupon_units, discount_cents) ' +
          `VALUES (NEW.event_id, NEW.ticket_id, ${day(mysql, 'NEW.created_at')}, 1, NEW.price_paid_minor, ` +
          'CASE WHEN NEW.coupon_code IS NULL THEN 0 ELSE 1 END, NEW.discount_minor)',
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
          "CASE WHEN NEW.status = 'completed' THEN SUM(a.discount_minor) ELSE 0 END " +
          'FROM attendees a WHERE a.order_id = NEW.id AND (a.rsvp_going IS NULL OR a.rsvp_going = 1) GROUP BY a.event_id, a.ticket_id',
      ],
    },
  ];
}

const REPLACED = ['TRG_attendees_insert_sales', 'TRG_orders_status_sales'];

/** DECIMAL(12,2) columns of major units, and the BIGINT minor-unit columns that replace them. */
const DECIMAL_COLUMNS: Array<{ table: string; decimal: string; minor: string }> = [
  { table: 'tickets', decimal: 'price', minor: 'price_minor' },
  { table: 'orders', decimal: 'total', minor: 'total_minor' },
  { table: 'orders', decimal: 'discount', minor: 'discount_minor' },
  { table: 'order_items', decimal: 'unit_price', minor: 'unit_price_minor' },
  { table: 'attendees', decimal: 'price_paid', minor: 'price_paid_minor' },
  { table: 'attendees', decimal: 'discount', minor: 'discount_minor' },
];

/** Integer columns that counted hundredths of the currency whatever its decimals. */
const HUNDREDTHS_COLUMNS: Array<{ table: string; column: string; where?: string; definition?: string }> = [
  { table: 'coupons', column: 'amount', where: "discount_type = 'flat'", definition: 'BIGINT NOT NULL DEFAULT 0' },
  { table: 'payments', column: 'amount_minor', definition: 'BIGINT NOT NULL' },
  { table: 'payments', column: 'refunded_minor', definition: 'BIGINT NOT NULL DEFAULT 0' },
  { table: 'payment_refunds', column: 'amount_minor', definition: 'BIGINT NOT NULL' },
  ...['sales_ledger', 'sales_daily'].flatMap((table) =>
    ['sold_cents', 'refunded_cents', 'cancelled_cents', 'discount_cents'].map((column) => ({ table, column })),
  ),
];

/**
 * The deployment's currency decimals: the stored amounts are its (CURRENCY_CODE is one per
 * deployment, read here as the app reads it).
 */
function deploymentExponent(): number {
  const code = (process.env.CURRENCY_CODE ?? 'USD').trim().toUpperCase();
  const exponent = currencyExponent(code);
  if (exponent === undefined) throw new Error(`CURRENCY_CODE "${code}" is not an ISO 4217 currency code`);
  return exponent;
}

/** SQL of `expression` moved from `from` decimals to `to` decimals, rounded half away from zero. */
function rescaled(expression: string, from: number, to: number): string {
  if (to >= from) return `${expression} * ${10 ** (to - from)}`;
  return `ROUND(${expression} / ${10 ** (from - to)}.0)`;
}

/**
 * Money in the currency's minor units (docs/api.md "Money"). Prices, totals and discounts were
 * DECIMAL(12,2) major units and the integer amounts hundredths whatever the currency, so a yen
 * price could carry cents and a dinar price could not carry its third decimal. Now every amount is
 * a BIGINT of the currency's minor units (ISO 4217 exponent: 0 for JPY, 2 for EUR, 3 for KWD):
 * the DECIMAL columns are replaced by `*_minor` ones, and the hundredths (flat coupons, payments
 * and refunds, the sales ledger's `*_cents`, whose names stay) are rescaled and widened, so that a
 * coupon's amount holds the validators' largest. Existing amounts are converted with the configured
 * CURRENCY_CODE; a yen price stored with cents is rounded half up to the yen. The sales triggers
 * sum the minor units as they are.
 */
export class MoneyInMinorUnits1765120000000 implements MigrationInterface {
  name = 'MoneyInMinorUnits1765120000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const exponent = deploymentExponent();
    // The triggers read the columns about to go (SQLite refuses to drop a column a trigger names).
    for (const name of REPLACED) await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
    for (const { table, decimal, minor } of DECIMAL_COLUMNS) {
      await addColumns(queryRunner, table, [`${minor} bigint NOT NULL DEFAULT 0`]);
      await queryRunner.query(`UPDATE ${table} SET ${minor} = ROUND(${decimal} * ${10 ** exponent})`);
      await dropColumns(queryRunner, table, [decimal]);
    }
    for (const { table, column, where, definition } of HUNDREDTHS_COLUMNS) {
      // SQLite's integers are 64-bit whatever the declared type; MySQL's INT is widened first.
      if (mysql && definition) await queryRunner.query(`ALTER TABLE ${table} MODIFY ${column} ${definition}`);
      if (exponent !== 2) {
        await queryRunner.query(`UPDATE ${table} SET ${column} = ${rescaled(column, 2, exponent)}${where ? ` WHERE ${where}` : ''}`);
      }
    }
    for (const trigger of triggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = isMysql(queryRunner);
    const exponent = deploymentExponent();
    for (const name of REPLACED) await queryRunner.query(`DROP TRIGGER IF EXISTS ${name}`);
    for (const { table, column, where, definition } of HUNDREDTHS_COLUMNS) {
      if (exponent !== 2) {
        await queryRunner.query(`UPDATE ${table} SET ${column} = ${rescaled(column, exponent, 2)}${where ? ` WHERE ${where}` : ''}`);
      }
      if (mysql && definition) await queryRunner.query(`ALTER TABLE ${table} MODIFY ${column} ${definition.replace('BIGINT', 'INT')}`);
    }
    for (const { table, decimal, minor } of DECIMAL_COLUMNS) {
      await addColumns(queryRunner, table, [`${decimal} decimal(12,2) NOT NULL DEFAULT 0`]);
      await queryRunner.query(`UPDATE ${table} SET ${decimal} = ${minor} / ${10 ** exponent}.0`);
      await dropColumns(queryRunner, table, [minor]);
    }
    for (const trigger of couponSalesTriggers(mysql)) await queryRunner.query(createTrigger(mysql, trigger));
  }
}
