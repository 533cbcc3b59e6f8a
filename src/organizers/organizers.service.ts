import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../auth/request-context';
import type { LinkedPostResource } from '../linked-posts/linked-post-resource';
import { ColumnValue, LinkedPostWrite, plainTextValue, sharedContentColumns } from '../linked-posts/linked-post-writes';
import { LinkedPostsService } from '../linked-posts/linked-posts.service';
import { EventOrganizerLink } from '../events/event-links.entity';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import type { OrganizerResponse } from './dto/organizer.response';
import type { UpdateOrganizerDto } from './dto/update-organizer.dto';
import { toOrganizerResponse } from './organizers.mapper';
import { Organizer } from './organizer.entity';

const CONTACT_FIELDS = ['phone', 'website', 'email'] as const;

/**
 * Organizers. `findOrCreateForEvent(fields, user, manager)`, inherited,
 * is what the events module calls for an organizer given as an object of fields.
 */
@Injectable()
export class OrganizersService extends LinkedPostsService<Organizer, CreateOrganizerDto, OrganizerResponse, 'organizers'> {
  protected readonly resource: LinkedPostResource<Organizer> = {
    type: 'organizer',
    entity: Organizer,
    link: { entity: EventOrganizerLink, property: 'organizerId' },
    searchProperties: ['title', 'description', 'excerpt', 'phone', 'email', 'website'],
  };

  protected readonly createInput = CreateOrganizerDto;
  protected readonly collection = 'organizers';

  protected columns(input: UpdateOrganizerDto, write: LinkedPostWrite): ColumnValue[] {
    const columns: ColumnValue[] = [];
    const name = plainTextValue(input.organizer);
    if (name) columns.push({ property: 'title', value: name, kind: 'text', matches: true });
    columns.push(...sharedContentColumns(input, write));
    for (const field of CONTACT_FIELDS) {
      const value = plainTextValue(input[field]);
      if (value !== undefined) columns.push({ property: field, value, kind: 'text', matches: true });
    }
    return columns;
  }

  protected blank(): Organizer {
    const manager = this.tx.manager;
    return manager.create(Organizer, { description: null, excerpt: null, image: null, phone: null, website: null, email: null });
  }

  protected toResponse(organizer: Organizer, context: RequestContext, options?: { jsonLd?: boolean }): OrganizerResponse {
    return toOrganizerResponse(organizer, context, options);
  }
}
