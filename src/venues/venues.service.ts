import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../auth/request-context';
import type { LinkedPostResource } from '../linked-posts/linked-post-resource';
import { ColumnValue, LinkedPostWrite, plainTextValue, sharedContentColumns } from '../linked-posts/linked-post-writes';
import { LinkedPostsService } from '../linked-posts/linked-posts.service';
import { EventVenueLink } from '../events/event-links.entity';
import { CreateVenueDto } from './dto/create-venue.dto';
import type { UpdateVenueDto } from './dto/update-venue.dto';
import type { VenueResponse } from './dto/venue.response';
import { toVenueResponse } from './venues.mapper';
import { Venue } from './venue.entity';

const ADDRESS_FIELDS = ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone', 'website'] as const;

/** The decimal(10,7) columns keep seven decimals; rounding first lets duplicates compare equal. */
function coordinate(value: number | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value;
  return Math.round(value * 1e7) / 1e7;
}

/**
 * Venues. `findOrCreateForEvent(fields, user, manager)`, inherited,
 * is what the events module calls for a venue given as an object of fields.
 */
@Injectable()
export class VenuesService extends LinkedPostsService<Venue, CreateVenueDto, VenueResponse, 'venues'> {
  protected readonly resource: LinkedPostResource<Venue> = {
    type: 'venue',
    entity: Venue,
    link: { entity: EventVenueLink, property: 'venueId' },
    searchProperties: ['title', 'description', 'excerpt', 'address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  };

  protected readonly createInput = CreateVenueDto;
  protected readonly collection = 'venues';

  protected columns(input: UpdateVenueDto, write: LinkedPostWrite): ColumnValue[] {
    const columns: ColumnValue[] = [];
    const name = plainTextValue(input.venue);
    if (name) columns.push({ property: 'title', value: name, kind: 'text', matches: true });
    columns.push(...sharedContentColumns(input, write));
    for (const field of ADDRESS_FIELDS) {
      const value = plainTextValue(input[field]);
      if (value !== undefined) columns.push({ property: field, value, kind: 'text', matches: true });
    }
    for (const [field, property] of [
      ['geo_lat', 'geoLat'],
      ['geo_lng', 'geoLng'],
    ] as const) {
      const value = coordinate(input[field]);
      if (value !== undefined) columns.push({ property, value, kind: 'exact', matches: true });
    }
    for (const [field, property] of [
      ['show_map', 'showMap'],
      ['show_map_link', 'showMapLink'],
    ] as const) {
      const value = input[field];
      if (value !== undefined && value !== null) columns.push({ property, value, kind: 'exact', matches: false });
    }
    return columns;
  }

  /**
   * `stateprovince` follows `state`, else `province`, unless it is sent itself (the recorded
   * venue has `state: IL` and so `stateprovince: IL`).
   */
  protected override deriveColumns(venue: Venue, input: UpdateVenueDto, existing: boolean): void {
    if (input.stateprovince !== undefined) return;
    if (existing && input.state === undefined && input.province === undefined) return;
    venue.stateprovince = venue.state || venue.province || null;
  }

  protected blank(): Venue {
    const manager = this.tx.manager;
    return manager.create(Venue, {
      description: null,
      excerpt: null,
      image: null,
      address: null,
      city: null,
      country: null,
      province: null,
      state: null,
      stateprovince: null,
      zip: null,
      phone: null,
      website: null,
      showMap: true,
      showMapLink: true,
      geoLat: null,
      geoLng: null,
    });
  }

  protected toResponse(venue: Venue, context: RequestContext, options?: { jsonLd?: boolean }): VenueResponse {
    return toVenueResponse(venue, context, options);
  }
}
