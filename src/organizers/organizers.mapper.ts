import type { RequestContext } from '../auth/request-context';
import { linkedPostHeadFields, linkedPostJsonLd } from '../linked-posts/linked-post-response';
import { globalIdFields, omitEmpty } from '../posts/post-response';
import type { OrganizerResponse } from './dto/organizer.response';
import { Organizer } from './organizer.entity';

/**
 * schema.org `Person` of an organizer, in the shape the original records (21-organizer-single.json):
 * the website as `url` and `sameAs`. The email is plain, not HTML-entity obfuscated.
 */
export function organizerJsonLd(organizer: Organizer): Record<string, unknown> {
  const jsonLd = linkedPostJsonLd(organizer, 'Person');
  jsonLd.url = organizer.website ?? '';
  jsonLd.telephone = organizer.phone ?? '';
  jsonLd.email = organizer.email ?? '';
  jsonLd.sameAs = organizer.website ?? '';
  return jsonLd;
}

/** An organizer in the original's key order; empty fields left out. */
export function toOrganizerResponse(organizer: Organizer, context: RequestContext, options: { jsonLd?: boolean } = {}): OrganizerResponse {
  const fields = {
    ...linkedPostHeadFields(organizer, 'organizer', context),
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
    json_ld: options.jsonLd ? organizerJsonLd(organizer) : undefined,
    ...globalIdFields(context, organizer.id),
  };
  return omitEmpty(fields) as OrganizerResponse;
}
