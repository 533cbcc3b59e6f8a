import type { AuthenticatedUser } from '../auth/roles';

/**
 * What the cart and checkout ask of the waiting rooms (src/queues), as a port injected by token:
 * the queues module provides ADMISSION_GATE from a global module, so neither the cart nor the
 * orders module imports it. An app without it (a test module, the CLI) gates nothing. Both methods
 * run in the caller's transaction (TransactionHost) and throw the queues' 403/409 errors.
 */
export const ADMISSION_GATE = Symbol('ADMISSION_GATE');

/** A line of a cart or an order, as the gate counts it. */
export interface GatedLine {
  ticketId: number;
  eventId: number;
  quantity: number;
}

export interface GateRequest {
  /** The lines the cart holds after the write (or the order checks out). */
  lines: GatedLine[];
  /** Tickets whose quantity the write raises: only those need an admission (a buyer may always shrink a cart). */
  raised?: ReadonlySet<number>;
  token: string | undefined;
  user: AuthenticatedUser | undefined;
  now: Date;
}

export interface AdmissionGate {
  /** A cart write: every live queue guarding a raised ticket needs a valid admission with units left for the cart's lines of its tickets. */
  checkCartWrite(request: GateRequest): Promise<void>;
  /** A checkout: the same check, and the order's units of each queue's tickets taken from its admission. */
  takeAtCheckout(request: GateRequest): Promise<void>;
}

export const NO_GATE: AdmissionGate = {
  checkCartWrite: () => Promise.resolve(),
  takeAtCheckout: () => Promise.resolve(),
};
