import { Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The category hierarchy as a closure table: one row per category and each of its ancestors,
 * itself included. Written only by the triggers of migration CategoryTreeListings1765090000000;
 * it decides which categories' lists an event appears in (a category lists its descendants' events).
 */
@Entity({ name: 'event_category_ancestors' })
@Index('IDX_event_category_ancestors_ancestor', ['ancestorId', 'categoryId'])
export class CategoryAncestor {
  @PrimaryColumn({ name: 'category_id', type: 'int' })
  categoryId: number;

  @PrimaryColumn({ name: 'ancestor_id', type: 'int' })
  ancestorId: number;
}
