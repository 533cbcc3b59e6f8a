import { LinkedPostListQueryDto } from '../../linked-posts/linked-post-list.query';

/**
 * Query parameters of GET /organizers: page, per_page, search (title, description, excerpt,
 * phone, email, website), event, has_events, only_with_upcoming, status.
 */
export class ListOrganizersQuery extends LinkedPostListQueryDto {}
