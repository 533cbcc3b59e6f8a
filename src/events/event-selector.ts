/** An event named in a route: by numeric id or by slug. */
export type EventSelector = { id: number } | { slug: string };
