import { Column, Entity, Index } from 'typeorm';
import { PostEntity } from '../posts/post.entity-base';

@Entity({ name: 'organizers' })
@Index('UQ_organizers_slug', ['slug'], { unique: true })
@Index('IDX_organizers_status_published', ['status', 'publishedAt'])
@Index('IDX_organizers_author', ['authorId'])
export class Organizer extends PostEntity {
  @Column({ type: 'varchar', length: 255, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;
}
