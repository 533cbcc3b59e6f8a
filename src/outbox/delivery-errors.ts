/** A delivery that no retry can fix (its order was deleted, an endpoint answered 410): marked failed at once. */
export class PermanentDeliveryError extends Error {
  constructor(
    message: string,
    readonly responseStatus: number | null = null,
  ) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

/** A failed attempt with what the receiver answered, for the delivery log. */
export class DeliveryAttemptError extends Error {
  constructor(
    message: string,
    readonly responseStatus: number | null,
  ) {
    super(message);
    this.name = 'DeliveryAttemptError';
  }
}
