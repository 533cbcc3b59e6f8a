/** An answer in the service's error envelope: `{code, message, data: {status, ...extra}}`. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  body(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

export function noRoute(): ApiFailure {
  return new ApiFailure('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

export function invalidParams(reasons: Record<string, string>): ApiFailure {
  return new ApiFailure('rest_invalid_param', `Invalid parameter(s): ${Object.keys(reasons).join(', ')}`, 400, { params: reasons });
}

export function invalidParam(field: string, reason: string): ApiFailure {
  return invalidParams({ [field]: reason });
}

export function missingParams(names: string[]): ApiFailure {
  return new ApiFailure('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names });
}

export function incorrectPassword(): ApiFailure {
  return new ApiFailure('incorrect_password', 'The provided password is an invalid application password.', 401);
}

export type SaleProblem = 'event-not-selling' | 'ticket-not-published' | 'before-sale' | 'after-sale' | 'not-enough-left';

const SALE_PROBLEM_REASONS: Record<SaleProblem, string> = {
  'event-not-selling': 'its event is not published',
  'ticket-not-published': 'it is not published',
  'before-sale': 'its sale has not started',
  'after-sale': 'its sale has ended',
  'not-enough-left': 'not enough units are left',
};

export function ticketCapacityNotAvailable(ticketId: number, problem: SaleProblem = 'not-enough-left'): ApiFailure {
  return new ApiFailure('ticket-capacity-not-available', `Ticket ${ticketId} cannot be bought in that quantity: ${SALE_PROBLEM_REASONS[problem]}.`, 409, {
    ticket_id: ticketId,
    reason: problem,
  });
}

export function ticketDoesNotExist(ticketId: number): ApiFailure {
  return new ApiFailure('ticket-does-not-exist', `Ticket ${ticketId} does not exist.`, 404, { ticket_id: ticketId });
}

export function cartEmpty(): ApiFailure {
  return new ApiFailure('cart-empty', 'The cart holds no tickets of this provider.', 400);
}

export function archivePageNotFound(resource: 'event' | 'venue'): ApiFailure {
  return new ApiFailure(`${resource}-archive-page-not-found`, `The requested ${resource} archive page does not exist`, 404);
}

export function invalidPageNumber(): ApiFailure {
  return new ApiFailure('invalid-page-number', 'The page number requested is larger than the number of pages available.', 400);
}
