import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * `event_documents.ticketed`: whether the stored single response reads its tickets' offers. Read
 * with the event's head, it lets a conditional GET work out the response's ETag (from the version,
 * the counts and the offers) without reading the document itself. Rows stored before have none
 * (null: unknown, the document is read as before); the document format moved (EVENT_DOCUMENT_FORMAT
 * 4), so each is rebuilt and written back with it on its first read.
 */
export class EventDocumentTicketed1765080000000 implements MigrationInterface {
  name = 'EventDocumentTicketed1765080000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('event_documents', new TableColumn({ name: 'ticketed', type: 'boolean', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('event_documents', 'ticketed');
  }
}
