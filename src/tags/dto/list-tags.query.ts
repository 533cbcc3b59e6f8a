import { ListTermsQuery } from '../../terms/list-terms.query';

/** Query parameters of GET /tags: the term list filters, nothing more. */
export class ListTagsQuery extends ListTermsQuery {}
