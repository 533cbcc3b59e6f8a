import { invalidParam } from '../errors/api-error';
import { toList } from '../http/transforms';
import { MAX_LIST_VALUES } from '../security/list-limits';

/** What a status filter of one route accepts. */
export interface StatusListRule<S extends string> {
  allowed: readonly S[];
  /** Whether `any` is accepted: every status, which the route reads as its own default of "no filter". */
  acceptsAny?: boolean;
  /** Names that stand for several statuses (the attendees' `order_status=public`). */
  groups?: Readonly<Record<string, readonly S[]>>;
}

/**
 * A status list filter (one value, an array or a comma-separated list; trimmed and lower-cased):
 * undefined when none is asked for, `'any'` when the rule accepts it and it is asked for, else the
 * statuses, each once. A value the rule does not know is a 400 naming `field`.
 */
export function parseStatusList<S extends string>(raw: unknown, field: string, rule: StatusListRule<S>): S[] | 'any' | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const list = toList(raw);
  const values = (Array.isArray(list) ? list : [list]).map((value) => String(value).trim().toLowerCase()).filter((value) => value !== '');
  // " " or "," name no status: no filter, rather than an `IN ()` that MySQL refuses.
  if (values.length === 0) return undefined;
  if (values.length > MAX_LIST_VALUES) throw invalidParam(field, `${field} may hold at most ${MAX_LIST_VALUES} values`);
  const statuses = new Set<S>();
  let any = false;
  for (const value of values) {
    const group = rule.groups && Object.hasOwn(rule.groups, value) ? rule.groups[value] : undefined;
    if (rule.acceptsAny && value === 'any') any = true;
    else if (group) group.forEach((status) => statuses.add(status));
    else if ((rule.allowed as readonly string[]).includes(value)) statuses.add(value as S);
    else throw invalidParam(field, `${field} must hold ${acceptedNames(rule).join(', ')}`);
  }
  return any ? 'any' : [...statuses];
}

function acceptedNames(rule: StatusListRule<string>): string[] {
  return [...rule.allowed, ...Object.keys(rule.groups ?? {}), ...(rule.acceptsAny ? ['any'] : [])];
}
