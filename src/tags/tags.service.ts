import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../common/database/transaction-host';
import { TermStore } from '../terms/term-store';
import { TermsService } from '../terms/terms.service';
import { EventTagLink } from '../events/event-links.entity';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery } from './dto/list-tags.query';
import { Tag } from './tag.entity';

const TAG_TABLE = {
  kind: 'tag',
  entity: Tag,
  link: EventTagLink,
  linkTermProperty: 'tagId',
  eventField: 'tags',
} as const;

/** Event tags: a flat taxonomy, so the shared term rules apply as they are (names unique across all tags). */
@Injectable()
export class TagsService extends TermsService<Tag, CreateTagDto, ListTagsQuery> {
  constructor(tx: TransactionHost) {
    super(tx, new TermStore<Tag>(TAG_TABLE));
  }
}
