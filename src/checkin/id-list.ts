/** A stored JSON array of ids (a list's tickets, a device's lists). */
export function parseIdList(stored: string | null): number[] {
  if (!stored) return [];
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
}
