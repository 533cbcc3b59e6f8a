import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { createPortableTable, isMysql } from '../migration-helpers';

/**
 * `event_documents`: each event's response as built once, serialized, shared by every instance
 * (src/events/stored-event-documents.ts). A row holds the document of one `document_version` of
 * its event under one configuration (`identity`: API root, prefix, site time zone); a read that
 * finds it older, or missing, builds the document from rows and writes it back. Deleting an event
 * deletes its document.
 */
export class StoredEventDocuments1765050000000 implements MigrationInterface {
  name = 'StoredEventDocuments1765050000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPortableTable(
      queryRunner,
      new Table({
        name: 'event_documents',
        columns: [
          { name: 'event_id', type: 'int', isPrimary: true },
          { name: 'document_version', type: 'int', isNullable: false },
          { name: 'identity', type: 'varchar', length: '32', isNullable: false },
          { name: 'body', type: isMysql(queryRunner) ? 'mediumtext' : 'text', isNullable: false },
        ],
      }),
    );
    await queryRunner.createForeignKey(
      'event_documents',
      new TableForeignKey({
        name: 'FK_event_documents_event',
        columnNames: ['event_id'],
        referencedTableName: 'events',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_documents', true, true);
  }
}
