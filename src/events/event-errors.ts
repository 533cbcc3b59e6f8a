import { ApiError } from '../common/errors/api-error';

/** The error codes of the events routes, as the reference names them. */
export const EventErrorCode = {
  notFound: 'rest-event-not-found',
  notAccessible: 'event-not-accessible',
  noLongerAvailable: 'event-no-longer-available',
  hasAttendees: 'has-attendees',
  cannotEditOthers: 'rest_cannot_edit_others',
} as const;

export function eventNotFound(selector: { id: number } | { slug: string }): ApiError {
  const message = 'id' in selector ? `Event with ID ${selector.id} does not exist.` : `Event with slug "${selector.slug}" does not exist.`;
  return new ApiError(EventErrorCode.notFound, message, 404);
}

/** A trashed event, for callers who may not edit it. */
export function eventNoLongerAvailable(): ApiError {
  return new ApiError(EventErrorCode.noLongerAvailable, 'This event is no longer available', 403);
}

export function eventNotAccessible(): ApiError {
  return new ApiError(EventErrorCode.notAccessible, 'The requested event is not accessible', 403);
}

/** A forced delete of an event that has attendees. */
export function eventHasAttendees(): ApiError {
  return new ApiError(EventErrorCode.hasAttendees, 'The event has attendees and cannot be deleted for good; trash it instead.', 409);
}

/** Naming an author other than oneself without the right to. */
export function cannotEditOthersEvents(): ApiError {
  return new ApiError(EventErrorCode.cannotEditOthers, 'Sorry, you are not allowed to create or edit events as this user.', 403);
}
