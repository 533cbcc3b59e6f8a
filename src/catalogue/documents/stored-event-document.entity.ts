import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An event's document as built once, serialized (migration StoredEventDocuments; src/events/stored-event-documents.ts). */
@Entity({ name: 'event_documents' })
export class StoredEventDocument {
  @PrimaryColumn({ name: 'event_id', type: 'int' })
  eventId: number;

  /** The event's `document_version` the body was built at. */
  @Column({ name: 'document_version', type: 'int' })
  documentVersion: number;

  /** The configuration and document format the body was built under (storedDocumentIdentity). */
  @Column({ type: 'varchar', length: 32 })
  identity: string;

  /** The EventDocument as JSON, with placeholders for the request's origin and site id, compressed (StoredEventDocuments.decode). */
  @Column({ type: 'blob' })
  body: Buffer;

  /** The list item alone, as its JSON text (the EventDocument's `list`), compressed, for pages to read without the rest. */
  @Column({ name: 'list_item', type: 'blob', nullable: true })
  listItem: Buffer | null;

  /** The surrogate keys of what the list item shows, space-separated. */
  @Column({ name: 'list_keys', type: 'text', nullable: true })
  listKeys: string | null;

  /** Whether the single response reads its tickets' offers (null: stored before the column, unknown). */
  @Column({ type: 'boolean', nullable: true })
  ticketed: boolean | null;
}
