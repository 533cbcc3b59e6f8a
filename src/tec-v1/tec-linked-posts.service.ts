import { Injectable } from '@nestjs/common';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import type { LinkedPostListQuery } from '../linked-posts/linked-post-resource';
import { OrganizersService } from '../organizers/organizers.service';
import type { OrganizerResponse } from '../organizers/dto/organizer.response';
import type { CreateOrganizerDto } from '../organizers/dto/create-organizer.dto';
import { VenuesService } from '../venues/venues.service';
import type { VenueResponse } from '../venues/dto/venue.response';
import type { CreateVenueDto } from '../venues/dto/create-venue.dto';
import { TecOrganizerResponse, TecVenueResponse } from './dto/tec-post.response';
import { toTecOrganizer, toTecVenue } from './tec-posts.mapper';
import { createOrganizerBody, createVenueBody, linkedPostsQuery } from './tec-requests';
import { asTec, pageNumber, TecPage } from './tec-responses';
import type { TecTranslation } from './tec-input.pipe';

/** What tec/v1 needs of the venues or organizers service of the events namespace. */
interface LinkedPostsPort<Input, Response, Collection extends string> {
  list(
    query: LinkedPostListQuery,
    context: RequestContext,
  ): Promise<{ [key in Collection]: Response[] } & { total: number; total_pages: number }>;
  findOne(key: { id: number }, context: RequestContext): Promise<Response>;
  create(input: Input, user: SignedInContext['user'], context: RequestContext): Promise<Response>;
  update(key: { id: number }, input: Partial<Input>, user: SignedInContext['user'], context: RequestContext): Promise<Response>;
  remove(key: { id: number }, force: boolean, user: SignedInContext['user'], context: RequestContext): Promise<Response>;
}

/** tec/v1's venues or organizers: the events namespace's service (every rule in it), in the WordPress post shape. */
abstract class TecLinkedPosts<Input, Response, Collection extends string, TecResponse> {
  constructor(
    private readonly service: LinkedPostsPort<Input, Response, Collection>,
    private readonly collection: Collection,
    private readonly toTec: (post: Response) => TecResponse,
    private readonly body: TecTranslation,
  ) {}

  list(query: LinkedPostListQuery, context: RequestContext): Promise<TecPage<TecResponse>> {
    return asTec(
      'read',
      async () => {
        const page = await this.service.list(query, context);
        return { items: page[this.collection].map(this.toTec), page: pageNumber(query), total: page.total, totalPages: page.total_pages };
      },
      linkedPostsQuery.tecName,
    );
  }

  get(id: number, context: RequestContext): Promise<TecResponse> {
    return asTec('read', async () => this.toTec(await this.service.findOne({ id }, context)));
  }

  create(input: Input, context: SignedInContext): Promise<TecResponse> {
    return asTec('created', async () => this.toTec(await this.service.create(input, context.user, context)), this.body.tecName);
  }

  update(id: number, input: Partial<Input>, context: SignedInContext): Promise<TecResponse> {
    return asTec('updated', async () => this.toTec(await this.service.update({ id }, input, context.user, context)), this.body.tecName);
  }

  async remove(id: number, force: boolean, context: SignedInContext): Promise<[]> {
    await asTec('deleted', () => this.service.remove({ id }, force, context.user, context));
    return [];
  }
}

@Injectable()
export class TecVenuesService extends TecLinkedPosts<CreateVenueDto, VenueResponse, 'venues', TecVenueResponse> {
  constructor(venues: VenuesService) {
    super(venues, 'venues', toTecVenue, createVenueBody);
  }
}

@Injectable()
export class TecOrganizersService extends TecLinkedPosts<CreateOrganizerDto, OrganizerResponse, 'organizers', TecOrganizerResponse> {
  constructor(organizers: OrganizersService) {
    super(organizers, 'organizers', toTecOrganizer, createOrganizerBody);
  }
}
