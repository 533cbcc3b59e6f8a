import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKeyOptions } from 'typeorm';
import { createPortableTable, idColumn, timestampColumns } from '../migration-helpers';

/** Columns every post-like resource (event, venue, organizer) has, as WordPress posts do. */
function postColumns(queryRunner: QueryRunner): TableColumnOptions[] {
  return [
    idColumn,
    { name: 'author_id', type: 'int', isNullable: true },
    { name: 'status', type: 'varchar', length: '20', isNullable: false, default: "'publish'" },
    { name: 'title', type: 'varchar', length: '255', isNullable: false },
    { name: 'slug', type: 'varchar', length: '200', isNullable: false },
    { name: 'description', type: 'text', isNullable: true },
    { name: 'excerpt', type: 'text', isNullable: true },
    { name: 'image', type: 'varchar', length: '500', isNullable: true },
    // The post's publication date (`date`/`date_utc`), distinct from created_at.
    { name: 'published_at', type: 'datetime', isNullable: false },
    ...timestampColumns(queryRunner),
  ];
}

function authorForeignKey(table: string): TableForeignKeyOptions {
  return {
    name: `FK_${table}_author`,
    columnNames: ['author_id'],
    referencedTableName: 'users',
    referencedColumnNames: ['id'],
    onDelete: 'SET NULL',
  };
}

function linkTable(name: string, otherColumn: string, otherTable: string, withPosition: boolean): Table {
  return new Table({
    name,
    columns: [
      { name: 'event_id', type: 'int', isPrimary: true },
      { name: otherColumn, type: 'int', isPrimary: true },
      ...(withPosition ? [{ name: 'position', type: 'int', isNullable: false, default: 0 }] : []),
    ],
    indices: [{ name: `IDX_${name}_${otherColumn}`, columnNames: [otherColumn, 'event_id'] }],
    foreignKeys: [
      {
        name: `FK_${name}_event`,
        columnNames: ['event_id'],
        referencedTableName: 'events',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      },
      {
        name: `FK_${name}_${otherColumn}`,
        columnNames: [otherColumn],
        referencedTableName: otherTable,
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      },
    ],
  });
}

export class CreateEventsNamespace1764100000000 implements MigrationInterface {
  name = 'CreateEventsNamespace1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const addressColumns: TableColumnOptions[] = ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone'].map(
      (name) => ({ name, type: 'varchar', length: '255', isNullable: true }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'venues',
        columns: [
          ...postColumns(queryRunner),
          ...addressColumns,
          { name: 'website', type: 'varchar', length: '500', isNullable: true },
          { name: 'show_map', type: 'boolean', isNullable: false, default: true },
          { name: 'show_map_link', type: 'boolean', isNullable: false, default: true },
          { name: 'geo_lat', type: 'decimal', precision: 10, scale: 7, isNullable: true },
          { name: 'geo_lng', type: 'decimal', precision: 10, scale: 7, isNullable: true },
        ],
        indices: [
          { name: 'UQ_venues_slug', columnNames: ['slug'], isUnique: true },
          { name: 'IDX_venues_status_published', columnNames: ['status', 'published_at'] },
          { name: 'IDX_venues_author', columnNames: ['author_id'] },
          { name: 'IDX_venues_geo', columnNames: ['geo_lat', 'geo_lng'] },
        ],
        foreignKeys: [authorForeignKey('venues')],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'organizers',
        columns: [
          ...postColumns(queryRunner),
          { name: 'phone', type: 'varchar', length: '255', isNullable: true },
          { name: 'website', type: 'varchar', length: '500', isNullable: true },
          { name: 'email', type: 'varchar', length: '255', isNullable: true },
        ],
        indices: [
          { name: 'UQ_organizers_slug', columnNames: ['slug'], isUnique: true },
          { name: 'IDX_organizers_status_published', columnNames: ['status', 'published_at'] },
          { name: 'IDX_organizers_author', columnNames: ['author_id'] },
        ],
        foreignKeys: [authorForeignKey('organizers')],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'events',
        columns: [
          ...postColumns(queryRunner),
          { name: 'timezone', type: 'varchar', length: '64', isNullable: false },
          { name: 'all_day', type: 'boolean', isNullable: false, default: false },
          // Instants in UTC for filtering and ordering; wall-clock times in the event's zone for display.
          { name: 'start_utc', type: 'datetime', isNullable: false },
          { name: 'end_utc', type: 'datetime', isNullable: false },
          { name: 'start_local', type: 'varchar', length: '19', isNullable: false },
          { name: 'end_local', type: 'varchar', length: '19', isNullable: false },
          { name: 'cost', type: 'varchar', length: '255', isNullable: true },
          { name: 'website', type: 'varchar', length: '500', isNullable: true },
          { name: 'show_map', type: 'boolean', isNullable: false, default: true },
          { name: 'show_map_link', type: 'boolean', isNullable: false, default: true },
          { name: 'hide_from_listings', type: 'boolean', isNullable: false, default: false },
          { name: 'sticky', type: 'boolean', isNullable: false, default: false },
          { name: 'featured', type: 'boolean', isNullable: false, default: false },
          { name: 'post_parent_id', type: 'int', isNullable: true },
        ],
        indices: [
          { name: 'UQ_events_slug', columnNames: ['slug'], isUnique: true },
          // The default list: published, listed, ordered by start then id.
          { name: 'IDX_events_listing', columnNames: ['status', 'hide_from_listings', 'start_utc', 'id'] },
          { name: 'IDX_events_start', columnNames: ['start_utc', 'id'] },
          { name: 'IDX_events_end', columnNames: ['end_utc'] },
          { name: 'IDX_events_featured', columnNames: ['featured', 'start_utc'] },
          { name: 'IDX_events_author', columnNames: ['author_id'] },
          { name: 'IDX_events_parent', columnNames: ['post_parent_id'] },
        ],
        foreignKeys: [
          authorForeignKey('events'),
          {
            name: 'FK_events_parent',
            columnNames: ['post_parent_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'event_categories',
        columns: [
          idColumn,
          { name: 'name', type: 'varchar', length: '200', isNullable: false },
          { name: 'slug', type: 'varchar', length: '200', isNullable: false },
          { name: 'description', type: 'text', isNullable: true },
          { name: 'parent_id', type: 'int', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_event_categories_slug', columnNames: ['slug'], isUnique: true },
          { name: 'IDX_event_categories_name', columnNames: ['name'] },
          { name: 'IDX_event_categories_parent', columnNames: ['parent_id'] },
        ],
        foreignKeys: [
          {
            name: 'FK_event_categories_parent',
            columnNames: ['parent_id'],
            referencedTableName: 'event_categories',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          },
        ],
      }),
    );
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'event_tags',
        columns: [
          idColumn,
          { name: 'name', type: 'varchar', length: '200', isNullable: false },
          { name: 'slug', type: 'varchar', length: '200', isNullable: false },
          { name: 'description', type: 'text', isNullable: true },
          ...timestampColumns(queryRunner),
        ],
        indices: [
          { name: 'UQ_event_tags_slug', columnNames: ['slug'], isUnique: true },
          { name: 'IDX_event_tags_name', columnNames: ['name'] },
        ],
      }),
    );
    await createPortableTable(queryRunner, linkTable('event_venue_links', 'venue_id', 'venues', true));
    await createPortableTable(queryRunner, linkTable('event_organizer_links', 'organizer_id', 'organizers', true));
    await createPortableTable(queryRunner, linkTable('event_category_links', 'category_id', 'event_categories', false));
    await createPortableTable(queryRunner, linkTable('event_tag_links', 'tag_id', 'event_tags', false));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'event_tag_links',
      'event_category_links',
      'event_organizer_links',
      'event_venue_links',
      'event_tags',
      'event_categories',
      'events',
      'organizers',
      'venues',
    ]) {
      await queryRunner.dropTable(table, true);
    }
  }
}
