import { Column, Entity, Index } from 'typeorm';
import { decimalToNumber, PostEntity } from '../posts/post.entity-base';

@Entity({ name: 'venues' })
@Index('UQ_venues_slug', ['slug'], { unique: true })
@Index('IDX_venues_status_published', ['status', 'publishedAt'])
@Index('IDX_venues_author', ['authorId'])
@Index('IDX_venues_geo', ['geoLat', 'geoLng'])
export class Venue extends PostEntity {
  @Column({ type: 'varchar', length: 255, nullable: true })
  address: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  city: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  country: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  province: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  state: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  stateprovince: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  zip: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  phone: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Column({ name: 'show_map', type: 'boolean', default: true })
  showMap: boolean;

  @Column({ name: 'show_map_link', type: 'boolean', default: true })
  showMapLink: boolean;

  @Column({ name: 'geo_lat', type: 'decimal', precision: 10, scale: 7, nullable: true, transformer: decimalToNumber })
  geoLat: number | null;

  @Column({ name: 'geo_lng', type: 'decimal', precision: 10, scale: 7, nullable: true, transformer: decimalToNumber })
  geoLng: number | null;
}
