/** What a list's status counts, read by CheckinRepository and shown by the mapper. */
export interface ListCounts {
  position: number;
  checkin: number;
  inside: number;
}

export const NO_COUNTS: ListCounts = { position: 0, checkin: 0, inside: 0 };

export interface GateCounts {
  gate: string | null;
  entries: number;
  exits: number;
  inside: number;
}
