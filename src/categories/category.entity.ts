import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'event_categories' })
@Index('UQ_event_categories_slug', ['slug'], { unique: true })
@Index('IDX_event_categories_name', ['name'])
@Index('IDX_event_categories_parent', ['parentId'])
export class Category {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'parent_id', type: 'int', nullable: true })
  parentId: number | null;

  @ManyToOne(() => Category, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'FK_event_categories_parent' })
  parent?: Category | null;

  /** Published events linked to the term, kept by the events service (see the StoredTermCounts migration). */
  @Column({ name: 'published_event_count', type: 'int', default: 0 })
  publishedEventCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}
