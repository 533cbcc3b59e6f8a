import type { CreateEventDto } from './dto/create-event.dto';
import type { EventResponse } from './dto/event.response';
import type { Event } from './event.entity';

/**
 * The event's own fields that every read path shows as stored and that need no rule of their own:
 * declared once here, they are applied from a create or update body (EventsService), shown by the
 * response (toEventResponse), copied to later occurrences of a series (SeriesService's template),
 * part of the stored documents' identity (StoredEventDocuments) and checked against the OpenAPI
 * example and on every read path by test/event-fields.e2e-spec.ts. CONTRIBUTING: "Adding a field".
 */
export interface EventFieldDeclaration {
  /** The key of the request bodies and of the response. */
  key: string;
  /** The entity's property, and its column in `events`. */
  property: Extract<keyof Event, string>;
  column: string;
  /** flag: a boolean; text: optional plain text, where "" clears it (stored null, shown ""). */
  kind: 'flag' | 'text';
  /** Whether the response shows it (false: a setting the API writes but does not show). */
  shown: boolean;
  /** Whether later occurrences of a series get it from the series' template. */
  copiedToSeries: boolean;
  /**
   * Whether the original API (TEC's tribe/events/v1) has it: its fields keep the original's place in
   * the response, the others follow the fields this API adds (after `recurrence`), so that drop-in
   * clients comparing key orders still match.
   */
  original: boolean;
  /** A value other than the default, that the round-trip spec writes and reads back. */
  sample: boolean | string;
}

export const EVENT_FIELDS = [
  {
    key: 'show_map',
    property: 'showMap',
    column: 'show_map',
    kind: 'flag',
    shown: true,
    copiedToSeries: true,
    original: true,
    sample: false,
  },
  {
    key: 'show_map_link',
    property: 'showMapLink',
    column: 'show_map_link',
    kind: 'flag',
    shown: true,
    copiedToSeries: true,
    original: true,
    sample: false,
  },
  {
    key: 'hide_from_listings',
    property: 'hideFromListings',
    column: 'hide_from_listings',
    kind: 'flag',
    shown: true,
    copiedToSeries: true,
    original: true,
    sample: true,
  },
  { key: 'sticky', property: 'sticky', column: 'sticky', kind: 'flag', shown: true, copiedToSeries: true, original: true, sample: true },
  {
    key: 'featured',
    property: 'featured',
    column: 'featured',
    kind: 'flag',
    shown: true,
    copiedToSeries: true,
    original: true,
    sample: true,
  },
  {
    key: 'show_attendee_list',
    property: 'showAttendeeList',
    column: 'show_attendee_list',
    kind: 'flag',
    shown: false,
    copiedToSeries: true,
    original: true,
    sample: true,
  },
] as const satisfies readonly EventFieldDeclaration[];

type DeclaredField = (typeof EVENT_FIELDS)[number];
type ValueOf<F extends DeclaredField> = F['kind'] extends 'flag' ? boolean : string;
export type DeclaredFieldKey = DeclaredField['key'];
type ShownField = Extract<DeclaredField, { shown: true }>;

/** The declared fields as a body or a series template carries them. */
export type DeclaredFieldValues = { [F in DeclaredField as F['key']]?: ValueOf<F> };
/** The declared fields the response shows. */
export type ShownFieldValues = { [F in ShownField as F['key']]: ValueOf<F> };

// The compiler checks that the DTO, the response class and the entity carry every declared field.
type Assert<T extends true> = T;
export type DeclaredFieldsInTheDto = Assert<CreateEventDto extends { [K in DeclaredFieldKey]?: unknown } ? true : false>;
export type ShownFieldsInTheResponse = Assert<EventResponse extends ShownFieldValues ? true : false>;

/** Applies the declared fields a body sends to the event ("" clears a text). */
export function applyDeclaredFields(event: Event, input: DeclaredFieldValues): void {
  const target = event as unknown as Record<string, unknown>;
  for (const field of EVENT_FIELDS as readonly EventFieldDeclaration[]) {
    const value = (input as Record<string, unknown>)[field.key];
    if (value === undefined) continue;
    target[field.property] = field.kind === 'text' && value === '' ? null : value;
  }
}

/** The declared fields the response shows, in their declared order: the original API's, or those this API adds. */
export function shownDeclaredFields(event: Event, which: 'original' | 'added'): Partial<ShownFieldValues> {
  const shown: Record<string, unknown> = {};
  for (const field of EVENT_FIELDS as readonly EventFieldDeclaration[]) {
    if (!field.shown || field.original !== (which === 'original')) continue;
    const value = (event as unknown as Record<string, unknown>)[field.property];
    shown[field.key] = field.kind === 'text' ? (value ?? '') : value;
  }
  return shown;
}

/** The keys of the shown fields this API adds to the original's, in the order the response ends with them. */
export function addedShownKeys(): string[] {
  return (EVENT_FIELDS as readonly EventFieldDeclaration[]).filter((field) => field.shown && !field.original).map((field) => field.key);
}

/** The declared fields a series' later occurrences get from the event it was made or last edited from. */
export function seriesCopiedFields(event: Event): DeclaredFieldValues {
  const copied: Record<string, unknown> = {};
  for (const field of EVENT_FIELDS as readonly EventFieldDeclaration[]) {
    if (!field.copiedToSeries) continue;
    const value = (event as unknown as Record<string, unknown>)[field.property];
    copied[field.key] = field.kind === 'text' ? (value ?? '') : value;
  }
  return copied;
}

/** What the declarations say of the documents' shape, part of the stored documents' identity: a field added is a new format. */
export function declaredFieldsShape(): string {
  return JSON.stringify(EVENT_FIELDS.map((field) => [field.key, field.kind, field.shown, field.original]));
}
