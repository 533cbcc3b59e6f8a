import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * Whole-object examples for the interactive documentation (`{API_ROOT}/docs`) and the namespace
 * `doc` routes: the bodies a client sends to the main write routes, and what the main routes
 * answer. Response examples are real responses of the service (from `npm run cli -- seed:demo`,
 * with PUBLIC_URL=https://example.org). test/api-examples.e2e-spec.ts keeps both honest: every
 * request example is accepted by the API, and every response example has the keys, in order, of
 * a real response.
 */

/** Request bodies, by the name of their schema. Ids refer to objects of the response examples. */
export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  EventCreate: {
    title: 'Jazz night',
    description: '<p>A trio from Lyon, two sets.</p>',
    start_date: '2027-01-15 20:00:00',
    end_date: '2027-01-15 23:00:00',
    timezone: 'Europe/Paris',
    cost: '15',
    venue: { venue: 'Le Caveau', address: '12 rue de la Huchette', city: 'Paris', country: 'France' },
    organizer: [2],
    categories: ['Concerts', 'Jazz'],
    tags: ['late-night'],
    featured: true,
    status: 'publish',
  },
  EventUpdate: { featured: false, cost: '12-18', tags: ['late-night', 'accessible'] },
  VenueCreate: {
    venue: 'Loopback Hall',
    address: '1 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    country: 'United States',
    phone: '555-0100',
    website: 'https://loopback-hall.example.org',
    geo_lat: 39.7817,
    geo_lng: -89.6501,
  },
  VenueUpdate: { phone: '555-0199', show_map: false },
  OrganizerCreate: { organizer: 'Loopback Live', email: 'hello@loopback-live.example.org', phone: '555-0101', website: 'https://loopback-live.example.org' },
  OrganizerUpdate: { phone: '555-0102' },
  CategoryCreate: { name: 'Open-air cinema', description: 'Films under the sky' },
  CategoryUpdate: { description: 'Films under the sky, bring a blanket' },
  TagCreate: { name: 'sing-along' },
  TagUpdate: { description: 'Lyrics on screen' },
  TicketCreate: {
    post_id: 3,
    provider: 'tc',
    add_ticket_nonce: '22aa9f71331ed2ffc23f',
    name: 'General Admission',
    description: 'Standing room',
    price: '25',
    start_date: '2026-11-01',
    start_time: '00:00:00',
    end_date: '2027-01-15',
    end_time: '09:00:00',
    sku: 'GA-1',
    ticket: { mode: 'own', capacity: 100 },
  },
  TicketUpdate: { post_id: 3, edit_ticket_nonce: '72374de03dc6b331379f', price: '30', ticket: { mode: 'own', capacity: 120 } },
  TicketDelete: { post_id: 3, remove_ticket_nonce: 'fadd42b5901cef62d3f4' },
  CartUpdate: { provider: 'tc', post_id: 1, tickets: [{ ticket_id: 1, quantity: 2 }] },
  Checkout: {
    provider: 'tc',
    purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' },
    attendees: [
      { ticket_id: 1, name: 'Ada Lovelace', email: 'ada@example.org' },
      { ticket_id: 1, name: 'Charles Babbage', email: 'charles@example.org' },
    ],
  },
  AttendeeCheckIn: { check_in: true },
  QrCheckIn: { security_code: '5ee942a84d8d97bd17d4ede8f2d6a4d1' },
};

/** Responses, by the name of their schema. */
export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  Event: {
    "id": 3,
    "global_id": "example.org?id=3",
    "global_id_lineage": [
      "example.org?id=3"
    ],
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 00:54:53",
    "date_utc": "2026-11-22 00:54:53",
    "modified": "2026-11-22 00:54:53",
    "modified_utc": "2026-11-22 00:54:53",
    "url": "https://example.org/event/improv-night-toronto/",
    "rest_url": "https://example.org/cal/events/v1/events/3",
    "title": "Improv Night — Toronto",
    "description": "<p>Improv Night at Maple Theatre, Toronto.</p><p>Part of the demo calendar: edit or delete it freely.</p>",
    "excerpt": "<p>Improv Night in Toronto</p>",
    "slug": "improv-night-toronto",
    "image": false,
    "all_day": false,
    "start_date": "2026-11-30 19:00:00",
    "start_date_details": {
      "year": "2026",
      "month": "11",
      "day": "30",
      "hour": "19",
      "minutes": "00",
      "seconds": "00"
    },
    "end_date": "2026-11-30 21:00:00",
    "end_date_details": {
      "year": "2026",
      "month": "11",
      "day": "30",
      "hour": "21",
      "minutes": "00",
      "seconds": "00"
    },
    "utc_start_date": "2026-12-01 00:00:00",
    "utc_start_date_details": {
      "year": "2026",
      "month": "12",
      "day": "01",
      "hour": "00",
      "minutes": "00",
      "seconds": "00"
    },
    "utc_end_date": "2026-12-01 02:00:00",
    "utc_end_date_details": {
      "year": "2026",
      "month": "12",
      "day": "01",
      "hour": "02",
      "minutes": "00",
      "seconds": "00"
    },
    "timezone": "America/Toronto",
    "timezone_abbr": "EST",
    "cost": "$12",
    "cost_details": {
      "currency_symbol": "$",
      "currency_code": "USD",
      "currency_position": "prefix",
      "values": [
        "12"
      ]
    },
    "website": "https://example.org/event/improv-night-toronto/",
    "show_map": true,
    "show_map_link": true,
    "hide_from_listings": false,
    "sticky": false,
    "featured": false,
    "categories": [
      {
        "name": "Theatre",
        "slug": "theatre",
        "term_group": 0,
        "term_taxonomy_id": 3,
        "taxonomy": "cal_events_cat",
        "description": "Plays, improvisation and readings",
        "parent": 0,
        "count": 10,
        "filter": "raw",
        "id": 3,
        "urls": {
          "self": "https://example.org/cal/events/v1/categories/3",
          "collection": "https://example.org/cal/events/v1/categories"
        }
      }
    ],
    "tags": [
      {
        "name": "accessible",
        "slug": "accessible",
        "term_group": 0,
        "term_taxonomy_id": 4,
        "taxonomy": "post_tag",
        "description": "",
        "parent": 0,
        "count": 15,
        "filter": "raw",
        "id": 4,
        "urls": {
          "self": "https://example.org/cal/events/v1/tags/4",
          "collection": "https://example.org/cal/events/v1/tags"
        }
      }
    ],
    "venue": {
      "id": 7,
      "author": "1",
      "status": "publish",
      "date": "2026-11-22 00:54:53",
      "date_utc": "2026-11-22 00:54:53",
      "modified": "2026-11-22 00:54:53",
      "modified_utc": "2026-11-22 00:54:53",
      "url": "https://example.org/venue/maple-theatre/",
      "venue": "Maple Theatre",
      "slug": "maple-theatre",
      "address": "77 King Street West",
      "city": "Toronto",
      "country": "Canada",
      "province": "ON",
      "zip": "M5H 1J9",
      "phone": "+1 416 555 0107",
      "website": "https://maple-theatre.example.org",
      "stateprovince": "ON",
      "geo_lat": 43.6487,
      "geo_lng": -79.3817,
      "json_ld": {
        "@type": "Place",
        "name": "Maple Theatre",
        "description": "",
        "url": "",
        "address": {
          "@type": "PostalAddress",
          "streetAddress": "77 King Street West",
          "addressLocality": "Toronto",
          "addressRegion": "ON",
          "postalCode": "M5H 1J9",
          "addressCountry": "Canada"
        },
        "geo": {
          "@type": "GeoCoordinates",
          "latitude": 43.6487,
          "longitude": -79.3817
        },
        "telephone": "+1 416 555 0107",
        "sameAs": "https://maple-theatre.example.org"
      },
      "show_map": true,
      "show_map_link": true,
      "global_id": "example.org?id=7",
      "global_id_lineage": [
        "example.org?id=7"
      ]
    },
    "organizer": [
      {
        "id": 2,
        "author": "1",
        "status": "publish",
        "date": "2026-11-22 00:54:53",
        "date_utc": "2026-11-22 00:54:53",
        "modified": "2026-11-22 00:54:53",
        "modified_utc": "2026-11-22 00:54:53",
        "url": "https://example.org/organizer/open-stage-collective/",
        "organizer": "Open Stage Collective",
        "slug": "open-stage-collective",
        "phone": "+1 555 0202",
        "website": "https://open-stage.example.org",
        "email": "team@open-stage.example.org",
        "json_ld": {
          "@type": "Person",
          "name": "Open Stage Collective",
          "description": "",
          "url": "https://open-stage.example.org",
          "telephone": "+1 555 0202",
          "email": "team@open-stage.example.org",
          "sameAs": "https://open-stage.example.org"
        },
        "global_id": "example.org?id=2",
        "global_id_lineage": [
          "example.org?id=2"
        ]
      }
    ],
    "custom_fields": [],
    "json_ld": {
      "@context": "http://schema.org",
      "@type": "Event",
      "name": "Improv Night — Toronto",
      "description": "Improv Night in Toronto",
      "url": "https://example.org/event/improv-night-toronto/",
      "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
      "eventStatus": "https://schema.org/EventScheduled",
      "startDate": "2026-11-30T19:00:00-05:00",
      "endDate": "2026-11-30T21:00:00-05:00",
      "location": {
        "@type": "Place",
        "name": "Maple Theatre",
        "description": "",
        "url": "",
        "address": {
          "@type": "PostalAddress",
          "streetAddress": "77 King Street West",
          "addressLocality": "Toronto",
          "addressRegion": "ON",
          "postalCode": "M5H 1J9",
          "addressCountry": "Canada"
        },
        "geo": {
          "@type": "GeoCoordinates",
          "latitude": 43.6487,
          "longitude": -79.3817
        },
        "telephone": "+1 416 555 0107",
        "sameAs": "https://maple-theatre.example.org"
      },
      "organizer": {
        "@type": "Person",
        "name": "Open Stage Collective",
        "description": "",
        "url": "https://open-stage.example.org",
        "telephone": "+1 555 0202",
        "email": "team@open-stage.example.org",
        "sameAs": "https://open-stage.example.org"
      },
      "offers": [
        {
          "@type": "Offer",
          "url": "https://example.org/event/improv-night-toronto/",
          "price": "0",
          "category": "primary",
          "availability": "https://schema.org/InStock",
          "priceCurrency": "USD",
          "validFrom": "2026-11-21T00:00:00-05:00",
          "validThrough": "2026-11-30T19:00:00-05:00"
        }
      ]
    },
    "ticketed": [
      "rsvp"
    ],
    "series_id": null,
    "recurrence": null
  },
  Venue: {
    "id": 2,
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 00:54:52",
    "date_utc": "2026-11-22 00:54:52",
    "modified": "2026-11-22 00:54:52",
    "modified_utc": "2026-11-22 00:54:52",
    "url": "https://example.org/venue/le-caveau/",
    "venue": "Le Caveau",
    "slug": "le-caveau",
    "address": "12 rue de la Huchette",
    "city": "Paris",
    "country": "France",
    "zip": "75005",
    "phone": "+33 1 55 55 01 02",
    "website": "https://le-caveau.example.org",
    "geo_lat": 48.8529,
    "geo_lng": 2.3458,
    "json_ld": {
      "@type": "Place",
      "name": "Le Caveau",
      "description": "",
      "url": "",
      "address": {
        "@type": "PostalAddress",
        "streetAddress": "12 rue de la Huchette",
        "addressLocality": "Paris",
        "postalCode": "75005",
        "addressCountry": "France"
      },
      "geo": {
        "@type": "GeoCoordinates",
        "latitude": 48.8529,
        "longitude": 2.3458
      },
      "telephone": "+33 1 55 55 01 02",
      "sameAs": "https://le-caveau.example.org"
    },
    "show_map": true,
    "show_map_link": true,
    "global_id": "example.org?id=2",
    "global_id_lineage": [
      "example.org?id=2"
    ]
  },
  Organizer: {
    "id": 2,
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 00:54:53",
    "date_utc": "2026-11-22 00:54:53",
    "modified": "2026-11-22 00:54:53",
    "modified_utc": "2026-11-22 00:54:53",
    "url": "https://example.org/organizer/open-stage-collective/",
    "organizer": "Open Stage Collective",
    "slug": "open-stage-collective",
    "phone": "+1 555 0202",
    "website": "https://open-stage.example.org",
    "email": "team@open-stage.example.org",
    "json_ld": {
      "@type": "Person",
      "name": "Open Stage Collective",
      "description": "",
      "url": "https://open-stage.example.org",
      "telephone": "+1 555 0202",
      "email": "team@open-stage.example.org",
      "sameAs": "https://open-stage.example.org"
    },
    "global_id": "example.org?id=2",
    "global_id_lineage": [
      "example.org?id=2"
    ]
  },
  Category: {
    "id": 6,
    "count": 5,
    "description": "Small bands, late nights",
    "name": "Jazz",
    "slug": "jazz",
    "taxonomy": "cal_events_cat",
    "parent": 1,
    "meta": [],
    "url": "https://example.org/events/category/jazz/",
    "urls": {
      "self": "https://example.org/cal/events/v1/categories/6",
      "collection": "https://example.org/cal/events/v1/categories",
      "up": "https://example.org/cal/events/v1/categories/1"
    }
  },
  Term: {
    "id": 1,
    "count": 15,
    "description": "",
    "name": "family",
    "slug": "family",
    "taxonomy": "post_tag",
    "meta": [],
    "url": "https://example.org/events/tag/family/",
    "urls": {
      "self": "https://example.org/cal/events/v1/tags/1",
      "collection": "https://example.org/cal/events/v1/tags"
    }
  },
  Ticket: {
    "description": "All three days",
    "capacity": 500,
    "on_sale": false,
    "iac": "none",
    "price_suffix": null,
    "post_id": 4,
    "provider": "tc",
    "id": 4,
    "type": "default",
    "global_id": "example.org?type=tc&id=4",
    "global_id_lineage": [
      "example.org?type=tc&id=4"
    ],
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 00:54:54",
    "date_utc": "2026-11-22 00:54:54",
    "modified": "2026-11-22 00:54:54",
    "modified_utc": "2026-11-22 00:54:54",
    "title": "Festival pass",
    "image": false,
    "available_from": "2026-11-22 00:00:00",
    "available_from_details": {
      "year": "2026",
      "month": "11",
      "day": "22",
      "hour": "00",
      "minutes": "00",
      "seconds": "00"
    },
    "available_until": "2026-12-03 00:00:00",
    "available_until_details": {
      "year": "2026",
      "month": "12",
      "day": "03",
      "hour": "00",
      "minutes": "00",
      "seconds": "00"
    },
    "capacity_details": {
      "available_percentage": 99,
      "available": 497,
      "max": 500,
      "sold": 1,
      "pending": 0,
      "global_stock_mode": "global"
    },
    "is_available": true,
    "cost": "$60.00",
    "cost_details": {
      "currency_symbol": "$",
      "currency_position": "prefix",
      "values": [
        "60"
      ],
      "suffix": null,
      "currency_decimal_separator": ".",
      "currency_decimal_numbers": 2,
      "currency_thousand_separator": ","
    },
    "sale_price_data": {
      "enabled": "",
      "sale_price": "",
      "start_date": "",
      "end_date": ""
    },
    "supports_attendee_information": false,
    "attendees": [
      {
        "id": 6,
        "post_id": 4,
        "ticket_id": 4,
        "global_id": "example.org?type=attendee&id=6",
        "global_id_lineage": [
          "example.org?type=attendee&id=6"
        ],
        "author": "0",
        "status": "publish",
        "date": "2026-11-22 00:54:54",
        "date_utc": "2026-11-22 00:54:54",
        "modified": "2026-11-22 00:54:54",
        "modified_utc": "2026-11-22 00:54:54",
        "rest_url": "https://example.org/cal/tickets/v1/attendees/6",
        "ticket": {
          "id": 4,
          "title": "Festival pass",
          "description": "All three days",
          "raw_price": "60",
          "formatted_price": "60.00",
          "currency_config": {
            "symbol": "$",
            "placement": "prefix",
            "decimal_point": ".",
            "thousands_sep": ",",
            "number_of_decimals": 2
          },
          "start_sale": "2026-11-22",
          "end_sale": "2026-12-03"
        },
        "title": "Alan Turing",
        "optout": false,
        "provider": "tc",
        "order": 3,
        "sku": "",
        "email": "alan@example.org",
        "checked_in": false,
        "checkin_details": false,
        "is_subscribed": false,
        "is_purchaser": true,
        "security_code": "9191389f36d27d40e0ecf13b02889d27",
        "payment": {
          "provider": "tc",
          "price": "60",
          "currency": "$",
          "date": "2026-11-22 00:54:54",
          "date_details": {
            "year": "2026",
            "month": "11",
            "day": "22",
            "hour": "00",
            "minutes": "54",
            "seconds": "54"
          }
        }
      }
    ],
    "checkin": {
      "checked_in": 0,
      "unchecked_in": 1,
      "checked_in_percentage": 0,
      "unchecked_in_percentage": 100
    },
    "rest_url": "https://example.org/cal/tickets/v1/tickets/4",
    "fees": {
      "available_fees": [],
      "automatic_fees": [],
      "selected_fees": []
    },
    "capacity_type": "global",
    "sku": "",
    "available_from_start_time": "00:00:00",
    "available_from_end_time": "00:00:00",
    "totals": {
      "stock": 497,
      "sold": 1,
      "pending": 0
    }
  },
  Attendee: {
    "id": 3,
    "post_id": 3,
    "ticket_id": 3,
    "global_id": "example.org?type=attendee&id=3",
    "global_id_lineage": [
      "example.org?type=attendee&id=3"
    ],
    "author": "0",
    "status": "publish",
    "date": "2026-11-22 00:54:54",
    "date_utc": "2026-11-22 00:54:54",
    "modified": "2026-11-22 00:54:54",
    "modified_utc": "2026-11-22 00:54:54",
    "rest_url": "https://example.org/cal/tickets/v1/attendees/3",
    "ticket": {
      "id": 3,
      "title": "Free RSVP",
      "description": "Reserve a seat, pay at the door",
      "raw_price": "0",
      "formatted_price": "0.00",
      "currency_config": {
        "symbol": "$",
        "placement": "prefix",
        "decimal_point": ".",
        "thousands_sep": ",",
        "number_of_decimals": 2
      },
      "start_sale": "2026-11-21",
      "end_sale": "2026-11-30"
    },
    "title": "Grace Hopper",
    "optout": false,
    "provider": "rsvp",
    "order": 2,
    "sku": "",
    "email": "grace@example.org",
    "checked_in": false,
    "checkin_details": false,
    "is_subscribed": false,
    "is_purchaser": true,
    "security_code": "5ee942a84d8d97bd17d4ede8f2d6a4d1",
    "rsvp_going": true
  },
  Order: {
    "id": 3,
    "status": "completed",
    "provider": "tc",
    "total": "60.00",
    "currency": "USD",
    "purchaser": {
      "name": "Alan Turing",
      "email": "alan@example.org"
    },
    "attendees": [
      {
        "id": 6,
        "post_id": 4,
        "ticket_id": 4,
        "global_id": "example.org?type=attendee&id=6",
        "global_id_lineage": [
          "example.org?type=attendee&id=6"
        ],
        "author": "0",
        "status": "publish",
        "date": "2026-11-22 00:54:54",
        "date_utc": "2026-11-22 00:54:54",
        "modified": "2026-11-22 00:54:54",
        "modified_utc": "2026-11-22 00:54:54",
        "rest_url": "https://example.org/cal/tickets/v1/attendees/6",
        "ticket": {
          "id": 4,
          "title": "Festival pass",
          "description": "All three days",
          "raw_price": "60",
          "formatted_price": "60.00",
          "currency_config": {
            "symbol": "$",
            "placement": "prefix",
            "decimal_point": ".",
            "thousands_sep": ",",
            "number_of_decimals": 2
          },
          "start_sale": "2026-11-22",
          "end_sale": "2026-12-03"
        },
        "title": "Alan Turing",
        "optout": false,
        "provider": "tc",
        "order": 3,
        "sku": "",
        "email": "alan@example.org",
        "checked_in": false,
        "checkin_details": false,
        "is_subscribed": false,
        "is_purchaser": true,
        "security_code": "9191389f36d27d40e0ecf13b02889d27",
        "payment": {
          "provider": "tc",
          "price": "60",
          "currency": "$",
          "date": "2026-11-22 00:54:54",
          "date_details": {
            "year": "2026",
            "month": "11",
            "day": "22",
            "hour": "00",
            "minutes": "54",
            "seconds": "54"
          }
        }
      }
    ],
    "created": "2026-11-22 00:54:54"
  },
  Cart: {
    "tickets": [
      {
        "ticket_id": 1,
        "quantity": 2,
        "post_id": 1,
        "optout": 0,
        "iac": "none",
        "provider": "tc"
      }
    ],
    "meta": [],
    "cart_url": "https://example.org/cal/tickets/v1/cart?post_id=1",
    "checkout_url": "https://example.org/cal/tickets/v1/cart/checkout"
  },
  Nonces: {
    "add_ticket_nonce": "22aa9f71331ed2ffc23f",
    "edit_ticket_nonce": "72374de03dc6b331379f",
    "remove_ticket_nonce": "fadd42b5901cef62d3f4"
  }
};

/** Puts the examples on their schemas (in place), leaving alone a schema that has its own. */
export function addSchemaExamples(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  for (const [name, example] of Object.entries({ ...REQUEST_EXAMPLES, ...RESPONSE_EXAMPLES })) {
    const schema = schemas[name];
    if (schema && !('$ref' in schema) && schema.example === undefined) schema.example = example;
  }
  return document;
}
