import { Brackets, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import type { Attendee } from '../attendees/attendee.entity';
import type { AuthenticatedUser } from '../auth/roles';
import type { Event } from '../events/event.entity';
import { holdsValidTicket, VALID_TICKET_ORDER_STATUSES } from '../orders/order-status';
import type { Ticket } from '../tickets/ticket.entity';
import { canManageEvent, managedEventCondition } from './event-access';

/**
 * Which attendees a caller may see: every attendee of the events the caller manages (with every
 * field); of the others, the public attendees of published events that show their list.
 */

/** Attendees whose order counts as done, the ones the public may see (VALID_TICKET_ORDER_STATUSES). */
export const PUBLIC_ORDER_STATUSES = VALID_TICKET_ORDER_STATUSES;

/**
 * What the public (and signed-in callers who do not manage the event) may see: attendees of a
 * published event that shows its list, published, not opted out, RSVP going or not RSVP, order done.
 */
export function isPubliclyVisible(attendee: Attendee, event: Pick<Event, 'status' | 'showAttendeeList'>): boolean {
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
export function applyAttendeeVisibility(builder: SelectQueryBuilder<Attendee>, user: AuthenticatedUser | undefined): void {
  builder.where(
    new Brackets((visible) => {
      visible.where(managedEventCondition(user, builder)).orWhere(new Brackets((open) => applyPublicAttendeeVisibility(open, builder)));
    }),
  );
}

/** SQL of `isPubliclyVisible`. */
function applyPublicAttendeeVisibility(where: WhereExpressionBuilder, builder: SelectQueryBuilder<Attendee>): void {
  builder.setParameters({ publicEventStatus: 'publish', publicListShown: true });
  where.where('event.status = :publicEventStatus').andWhere('event.showAttendeeList = :publicListShown');
  applyPublicAttendeeState(where, builder, 'attendee');
}

/** SQL of the attendee's own part of `isPubliclyVisible` (published, not opted out, going, order done), over `alias`. */
function applyPublicAttendeeState(where: WhereExpressionBuilder, builder: SelectQueryBuilder<Attendee>, alias: string): void {
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
  tickets: Ticket[],
  eventsById: Map<number, Pick<Event, 'authorId' | 'status' | 'showAttendeeList'>>,
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
export function applyTicketAttendeeVisibility(
  builder: SelectQueryBuilder<Attendee>,
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
