import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';
import { createPortableTable, isMysql } from '../migration-helpers';

/**
 * `event_documents` with its two documents compressed (deflate with a preset dictionary, see
 * src/events/stored-event-documents.ts): a fifth to a seventh of the bytes, small enough to stay
 * in the row's own page. As text, a list item and a body of 5 and 8 KB each went to pages of their
 * own, and a million events took 22.7 GB (2.6 GB compressed), so that reading a page of them was
 * mostly reading the disk. The table is a cache of what the rows say: it is made again empty, and
 * each document is stored again on its first read (or by `npm run cli -- documents:store`), which
 * costs less than converting 22 GB.
 */
export class CompressedEventDocuments1765110000000 implements MigrationInterface {
  name = 'CompressedEventDocuments1765110000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_documents', true, true);
    await createDocumentsTable(queryRunner, isMysql(queryRunner) ? 'mediumblob' : 'blob');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('event_documents', true, true);
    await createDocumentsTable(queryRunner, isMysql(queryRunner) ? 'mediumtext' : 'text');
  }
}

async function createDocumentsTable(queryRunner: QueryRunner, documentType: string): Promise<void> {
  await createPortableTable(
    queryRunner,
    new Table({
      name: 'event_documents',
      columns: [
        { name: 'event_id', type: 'int', isPrimary: true },
        { name: 'document_version', type: 'int', isNullable: false },
        { name: 'identity', type: 'varchar', length: '32', isNullable: false },
        { name: 'body', type: documentType, isNullable: false },
        { name: 'list_item', type: documentType, isNullable: true },
        { name: 'list_keys', type: 'text', isNullable: true },
        { name: 'ticketed', type: 'boolean', isNullable: true },
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
