import { Brackets, ObjectLiteral, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import type { AuthenticatedUser } from '../auth/roles';
import type { PostStatus } from '../posts/post-status';
import { holdsValidTicket, VALID_TICKET_ORDER_STATUSES } from '../orders/order-status';
import { canManageEvent, managedEventCondition } from './event-access';

/**
 * Which attendees a caller may see: every attendee of the events the caller manages (with every
 * field); of the others, the public attendees of published events that show their list.
 */

/** Attendees whose order counts as done, the ones the public may see (VALID_TICKET_ORDER_STATUSES). */
export const PUBLIC_ORDER_STATUSES = VALID_TICKET_ORDER_STATUSES;

/** What the rules read of an attendee (the attendees module's entity has these and more). */
export interface AttendeeFacts {
  optout: boolean;
  status: string;
  provider: string;
  rsvpGoing: boolean | null;
  orderStatus: string;
}

/** What the rules read of an attendee's event. */
export interface AttendeeEventFacts {
  authorId: number | null;
  status: PostStatus;
  showAttendeeList: boolean;
}

/**
 * What the public (and signed-in callers who do not manage the event) may see: attendees of a
 * published event that shows its list, published, not opted out, RSVP going or not RSVP, order done.
 */
export function isPubliclyVisible(attendee: AttendeeFacts, event: Pick<AttendeeEventFacts, 'status' | 'showAttendeeList'>): boolean {
  return (
    event.status === 'publish' &&
    event.showAttendeeList &&
    !attendee.optout &&
    attendee.status === 'publish' &&
    (attendee.provider !== 'rsvp' || attendee.rsvpGoing === true) &&
    holdsValidTicket(attendee.orderStatus)
  );
}

/** An attendee list over `attendee` joined with its `event`: the attendees the caller manages or may see publicly. */
export function applyAttendeeVisibility<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  user: AuthenticatedUser | undefined,
): void {
  builder.where(
    new Brackets((visible) => {
      visible.where(managedEventCondition(user, builder)).orWhere(new Brackets((open) => applyPublicAttendeeVisibility(open, builder)));
    }),
  );
}

/** SQL of `isPubliclyVisible`. */
function applyPublicAttendeeVisibility<T extends ObjectLiteral>(where: WhereExpressionBuilder, builder: SelectQueryBuilder<T>): void {
  builder.setParameters({ publicEventStatus: 'publish', publicListShown: true });
  where.where('event.status = :publicEventStatus').andWhere('event.showAttendeeList = :publicListShown');
  applyPublicAttendeeState(where, builder, 'attendee');
}

/** SQL of the attendee's own part of `isPubliclyVisible` (published, not opted out, going, order done), over `alias`. */
function applyPublicAttendeeState<T extends ObjectLiteral>(
  where: WhereExpressionBuilder,
  builder: SelectQueryBuilder<T>,
  alias: string,
): void {
  builder.setParameters({
    publicOptout: false,
    publicAttendeeStatus: 'publish',
    publicRsvpProvider: 'rsvp',
    publicRsvpGoing: true,
    publicOrderStatuses: [...PUBLIC_ORDER_STATUSES],
  });
  where
    .andWhere(`${alias}.optout = :publicOptout`)
    .andWhere(`${alias}.status = :publicAttendeeStatus`)
    .andWhere(`(${alias}.provider <> :publicRsvpProvider OR ${alias}.rsvpGoing = :publicRsvpGoing)`)
    .andWhere(`${alias}.orderStatus IN (:...publicOrderStatuses)`);
}

/**
 * The attendees a page of tickets shows, split by ticket: every attendee of the tickets whose
 * event the caller manages; of the tickets of published events that show their list, the public
 * ones (`isPubliclyVisible`).
 */
export function ticketAttendeeLists(
  user: AuthenticatedUser | undefined,
  tickets: Array<{ id: number; eventId: number }>,
  eventsById: Map<number, AttendeeEventFacts>,
): { managedIds: number[]; publicListIds: number[] } {
  const managedIds: number[] = [];
  const publicListIds: number[] = [];
  for (const ticket of tickets) {
    const event = eventsById.get(ticket.eventId)!;
    if (canManageEvent(user, event)) managedIds.push(ticket.id);
    else if (event.showAttendeeList && event.status === 'publish') publicListIds.push(ticket.id);
  }
  return { managedIds, publicListIds };
}

/** SQL over attendees `a` of the attendees `ticketAttendeeLists` lets through. */
export function applyTicketAttendeeVisibility<T extends ObjectLiteral>(
  builder: SelectQueryBuilder<T>,
  { managedIds, publicListIds }: { managedIds: number[]; publicListIds: number[] },
): void {
  builder.where(
    new Brackets((visible) => {
      if (managedIds.length) visible.orWhere('a.ticketId IN (:...managedIds)', { managedIds });
      if (publicListIds.length) {
        visible.orWhere(
          new Brackets((shown) => {
            shown.where('a.ticketId IN (:...publicListIds)', { publicListIds });
            applyPublicAttendeeState(shown, builder, 'a');
          }),
        );
      }
    }),
  );
}
