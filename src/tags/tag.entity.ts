import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'event_tags' })
@Index('UQ_event_tags_slug', ['slug'], { unique: true })
@Index('IDX_event_tags_name', ['name'])
export class Tag {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** Published events linked to the term, kept by the events service (see the StoredTermCounts migration). */
  @Column({ name: 'published_event_count', type: 'int', default: 0 })
  publishedEventCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
