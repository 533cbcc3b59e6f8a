import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { createPortableTable, idColumn, isMysql, timestampColumns } from '../migration-helpers';

const money = { type: 'decimal', precision: 12, scale: 2, isNullable: false, default: 0 } as const;

export class CreateTicketsNamespace1764200000000 implements MigrationInterface {
  name = 'CreateTicketsNamespace1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const longText = isMysql(queryRunner) ? 'mediumtext' : 'text';
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'tickets',
        columns: [
          idColumn,
          { name: 'event_id', type: 'int', isNullable: false },
          { name: 'author_id', type: 'int', isNullable: true },
          { name: 'provider', type: 'varchar', length: '20', isNullable: false },
          { name: 'status', type: 'varchar', length: '20', isNullable: false, default: "'publish'" },
          { name: 'name', type: 'varchar', length: '255', isNullable: false },
          { name: 'description', type: 'text', isNullable: true },
          { name: 'price', ...money },
          { name: 'sku', type: 'varchar', length: '100', isNullable: true },
          { name: 'iac', type: 'varchar', length: '20', isNullable: false, default: "'none'" },
          { name: 'show_description', type: 'boolean', isNullable: false, default: true },
          { name: 'menu_order', type: 'int', isNullable: false, default: 0 },
          // The sale window as instants; shown as wall-clock times in the event's zone.
          { name: 'sale_start_utc', type: 'datetime', isNullable: true },
          { name: 'sale_end_utc', type: 'datetime', isNullable: true },
          // own | capped | global | unlimited. `capacity` is the ticket's own cap (null: the pool's, or none).
          { name: 'capacity_mode', type: 'varchar', length: '10', isNullable: false },
          { name: 'capacity', type: 'int', isNullable: true },
          { name: 'sold', type: 'int', isNullable: false, default: 0 },
          { name: 'pending', type: 'int', isNullable: false, default: 0 },
          { name: 'published_at', type: 'datetime', isNullable: false },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'IDX_tickets_event', columnNames: ['event_id', 'menu_order', 'id'] },
          { name: 'IDX_tickets_status', columnNames: ['status', 'id'] },
          { name: 'IDX_tickets_provider', columnNames: ['provider'] },
          { name: 'IDX_tickets_created', columnNames: ['created_at'] },
          { name: 'IDX_tickets_name', columnNames: ['name'] },
        ],
        foreignKeys: [
          {
            name: 'FK_tickets_event',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_tickets_author',
            columnNames: ['author_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    // The shared capacity of an event (`ticket[event_capacity]`), used by capped and global tickets.
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'ticket_pools',
        columns: [
          { name: 'event_id', type: 'int', isPrimary: true },
          { name: 'capacity', type: 'int', isNullable: false },
          { name: 'sold', type: 'int', isNullable: false, default: 0 },
          { name: 'pending', type: 'int', isNullable: false, default: 0 },
          ...timestampColumns(queryRunner),
        ],
        foreignKeys: [
          {
            name: 'FK_ticket_pools_event',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'orders',
        columns: [
          idColumn,
          { name: 'provider', type: 'varchar', length: '20', isNullable: false },
          { name: 'status', type: 'varchar', length: '20', isNullable: false },
          { name: 'user_id', type: 'int', isNullable: true },
          { name: 'cart_token', type: 'varchar', length: '64', isNullable: true },
          { name: 'purchaser_name', type: 'varchar', length: '255', isNullable: false },
          { name: 'purchaser_email', type: 'varchar', length: '255', isNullable: false },
          { name: 'total', ...money },
          { name: 'currency', type: 'varchar', length: '3', isNullable: false },
          { name: 'expires_at', type: 'datetime', isNullable: true },
          { name: 'completed_at', type: 'datetime', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'IDX_orders_status_expires', columnNames: ['status', 'expires_at'] },
          { name: 'IDX_orders_user', columnNames: ['user_id', 'id'] },
          { name: 'IDX_orders_cart_token', columnNames: ['cart_token', 'id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_orders_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'order_items',
        columns: [
          { name: 'order_id', type: 'int', isPrimary: true },
          { name: 'ticket_id', type: 'int', isPrimary: true },
          { name: 'quantity', type: 'int', isNullable: false },
          { name: 'unit_price', ...money },
        ],
        indices: [{ name: 'IDX_order_items_ticket', columnNames: ['ticket_id'] }],
        foreignKeys: [
          {
            name: 'FK_order_items_order',
            columnNames: ['order_id'],
            referencedTableName: 'orders',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_order_items_ticket',
            columnNames: ['ticket_id'],
            referencedTableName: 'tickets',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'attendees',
        columns: [
          idColumn,
          { name: 'order_id', type: 'int', isNullable: false },
          { name: 'ticket_id', type: 'int', isNullable: false },
          { name: 'event_id', type: 'int', isNullable: false },
          { name: 'user_id', type: 'int', isNullable: true },
          { name: 'provider', type: 'varchar', length: '20', isNullable: false },
          { name: 'status', type: 'varchar', length: '20', isNullable: false, default: "'publish'" },
          // The order's status copied here so that lists filter on one table; RSVP: yes / no.
          { name: 'order_status', type: 'varchar', length: '20', isNullable: false },
          { name: 'rsvp_going', type: 'boolean', isNullable: true },
          { name: 'holder_name', type: 'varchar', length: '255', isNullable: false },
          { name: 'holder_email', type: 'varchar', length: '255', isNullable: false },
          { name: 'security_code', type: 'varchar', length: '64', isNullable: false },
          { name: 'price_paid', ...money },
          { name: 'optout', type: 'boolean', isNullable: false, default: false },
          { name: 'meta', type: 'text', isNullable: true },
          { name: 'checked_in', type: 'boolean', isNullable: false, default: false },
          { name: 'checked_in_at', type: 'datetime', isNullable: true },
          { name: 'checkin_source', type: 'varchar', length: '20', isNullable: true },
          { name: 'checkin_user_id', type: 'int', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_attendees_security_code', columnNames: ['security_code'], isUnique: true },
          { name: 'IDX_attendees_ticket', columnNames: ['ticket_id', 'checked_in'] },
          { name: 'IDX_attendees_event', columnNames: ['event_id', 'id'] },
          { name: 'IDX_attendees_order', columnNames: ['order_id'] },
          { name: 'IDX_attendees_order_status', columnNames: ['order_status', 'id'] },
          { name: 'IDX_attendees_user', columnNames: ['user_id'] },
          { name: 'IDX_attendees_created', columnNames: ['created_at'] },
        ],
        foreignKeys: [
          {
            name: 'FK_attendees_order',
            columnNames: ['order_id'],
            referencedTableName: 'orders',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          // Nothing with sold tickets is destroyed: tickets and events with attendees cannot be removed.
          {
            name: 'FK_attendees_ticket',
            columnNames: ['ticket_id'],
            referencedTableName: 'tickets',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          },
          {
            name: 'FK_attendees_event',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          },
          {
            name: 'FK_attendees_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'carts',
        columns: [
          idColumn,
          // One of the two identifies the cart: the signed-in user, or the token issued to an anonymous buyer.
          { name: 'user_id', type: 'int', isNullable: true },
          { name: 'token', type: 'varchar', length: '64', isNullable: true },
          { name: 'meta', type: 'text', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_carts_user', columnNames: ['user_id'], isUnique: true },
          { name: 'UQ_carts_token', columnNames: ['token'], isUnique: true },
          { name: 'IDX_carts_updated', columnNames: ['updated_at'] },
        ],
        foreignKeys: [
          {
            name: 'FK_carts_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'cart_items',
        columns: [
          { name: 'cart_id', type: 'int', isPrimary: true },
          { name: 'ticket_id', type: 'int', isPrimary: true },
          { name: 'provider', type: 'varchar', length: '20', isNullable: false },
          { name: 'quantity', type: 'int', isNullable: false },
          { name: 'optout', type: 'boolean', isNullable: false, default: false },
          { name: 'meta', type: 'text', isNullable: true },
        ],
        indices: [{ name: 'IDX_cart_items_ticket', columnNames: ['ticket_id'] }],
        foreignKeys: [
          {
            name: 'FK_cart_items_cart',
            columnNames: ['cart_id'],
            referencedTableName: 'carts',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'FK_cart_items_ticket',
            columnNames: ['ticket_id'],
            referencedTableName: 'tickets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'idempotency_keys',
        columns: [
          idColumn,
          // Whose key it is: `user:<id>` or `cart:<token>`, so that callers cannot replay each other's.
          { name: 'scope', type: 'varchar', length: '100', isNullable: false },
          { name: 'idempotency_key', type: 'varchar', length: '255', isNullable: false },
          { name: 'request_hash', type: 'varchar', length: '64', isNullable: false },
          { name: 'status_code', type: 'int', isNullable: false },
          { name: 'response_body', type: longText, isNullable: false },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_idempotency_keys_scope_key', columnNames: ['scope', 'idempotency_key'], isUnique: true },
          { name: 'IDX_idempotency_keys_created', columnNames: ['created_at'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['idempotency_keys', 'cart_items', 'carts', 'attendees', 'order_items', 'orders', 'ticket_pools', 'tickets']) {
      await queryRunner.dropTable(table, true);
    }
  }
}
