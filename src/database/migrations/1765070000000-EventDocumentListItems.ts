import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { isMysql } from '../migration-helpers';

/**
 * `event_documents.list_item` and `list_keys`: an event's list item stored apart from its whole
 * document (`body`), so that a page whose items are missing from an instance's memory reads 25
 * list items (about a third of the bytes) instead of 25 whole documents with both renderings.
 * Rows stored before have neither: the document format moved (EVENT_DOCUMENT_FORMAT 3), so they
 * are rebuilt and written back with both on their first read.
 */
export class EventDocumentListItems1765070000000 implements MigrationInterface {
  name = 'EventDocumentListItems1765070000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('event_documents', [
      new TableColumn({ name: 'list_item', type: isMysql(queryRunner) ? 'mediumtext' : 'text', isNullable: true }),
      new TableColumn({ name: 'list_keys', type: 'text', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('event_documents', 'list_keys');
    await queryRunner.dropColumn('event_documents', 'list_item');
  }
}
