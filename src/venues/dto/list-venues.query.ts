import { LinkedPostListQueryDto } from '../../linked-posts/linked-post-list.query';

/**
 * Query parameters of GET /venues: page, per_page, search (title, description, excerpt, address,
 * city, province, state, stateprovince, zip, phone), event, has_events, only_with_upcoming, status.
 */
export class ListVenuesQuery extends LinkedPostListQueryDto {}
