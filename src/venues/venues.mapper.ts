import type { RequestContext } from '../auth/request-context';
import { linkedPostHeadFields, linkedPostJsonLd } from '../linked-posts/linked-post-response';
import { globalIdFields, omitEmpty } from '../posts/post-response';
import type { VenueResponse } from './dto/venue.response';
import { Venue } from './venue.entity';

/** The region a venue shows: its state or province, as the original's `tribe_get_region`. */
function regionOf(venue: Venue): string {
  return venue.stateprovince || venue.state || venue.province || '';
}

/**
 * schema.org `Place` of a venue, in the shape the original records (19-venue-single.json): the
 * address parts that are set, `geo` when both coordinates are, the website as `sameAs`. Its
 * `url` is empty there, and stays so here.
 */
export function venueJsonLd(venue: Venue): Record<string, unknown> {
  const jsonLd = linkedPostJsonLd(venue, 'Place');
  jsonLd.url = '';
  jsonLd.address = {
    '@type': 'PostalAddress',
    ...omitEmpty({
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: regionOf(venue),
      postalCode: venue.zip,
      addressCountry: venue.country,
    }),
  };
  if (venue.geoLat !== null && venue.geoLng !== null) {
    jsonLd.geo = { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng };
  }
  jsonLd.telephone = venue.phone ?? '';
  jsonLd.sameAs = venue.website ?? '';
  return jsonLd;
}

/** A venue in the original's key order; empty fields left out but for the map flags. */
export function toVenueResponse(venue: Venue, context: RequestContext, options: { jsonLd?: boolean } = {}): VenueResponse {
  const fields = {
    ...linkedPostHeadFields(venue, 'venue', context),
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    website: venue.website,
    stateprovince: venue.stateprovince,
    geo_lat: venue.geoLat,
    geo_lng: venue.geoLng,
    json_ld: options.jsonLd ? venueJsonLd(venue) : undefined,
    show_map: venue.showMap,
    show_map_link: venue.showMapLink,
    ...globalIdFields(context, venue.id),
  };
  return omitEmpty(fields, ['show_map', 'show_map_link']) as VenueResponse;
}
