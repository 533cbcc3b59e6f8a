import { Column, CreateDateColumn, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import type { PostStatus } from './post-status';

/** Columns shared by events, venues and organizers, which the original stores as WordPress posts. */
export abstract class PostEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'author_id', type: 'int', nullable: true })
  authorId: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'author_id' })
  author?: User | null;

  @Column({ type: 'varchar', length: 20, default: 'publish' })
  status: PostStatus;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'varchar', length: 200 })
  slug: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  excerpt: string | null;

  /** An image URL or attachment id as sent. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  image: string | null;

  /** Publication date (`date`/`date_utc` in responses). */
  @Column({ name: 'published_at', type: 'datetime' })
  publishedAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** Last modification (`modified`/`modified_utc`). */
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt: Date;
}

/** Decimal columns come back as strings from MySQL; the API works with numbers. */
export const decimalToNumber = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? null : Number(value)),
};
