import { DateTime } from 'luxon';
import type { RequestContext } from '../auth/request-context';
import type { EventResponse } from '../events/dto/event.response';
import { toTecEvent } from './tec-posts.mapper';

const context = { origin: 'https://example.org', siteTimezone: 'America/New_York' } as RequestContext;
const now = DateTime.fromISO('2026-03-08T12:00:00Z', { zone: 'UTC' });

function event(fields: Partial<EventResponse>): EventResponse {
  return {
    id: 9,
    author: '1',
    status: 'publish',
    date: '2026-01-01 10:00:00',
    date_utc: '2026-01-01 10:00:00',
    modified: '2026-01-01 10:00:00',
    modified_utc: '2026-01-01 10:00:00',
    url: 'https://example.org/event/e/',
    title: 'E',
    description: '',
    excerpt: '',
    slug: 'e',
    all_day: false,
    start_date: '2026-03-08 01:00:00',
    end_date: '2026-03-08 04:00:00',
    utc_start_date: '2026-03-08 06:00:00',
    utc_end_date: '2026-03-08 08:00:00',
    timezone: 'America/New_York',
    cost: '&#x24;5',
    featured: false,
    sticky: false,
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    ticketed: false,
    ...fields,
  } as EventResponse;
}

describe('toTecEvent', () => {
  it('gives the dates in the event, UTC and site zones as PHP DateTime JSON, across a DST change', () => {
    const tec = toTecEvent(event({}), context, now);
    // 01:00 EST to 04:00 EDT is two hours.
    expect(tec.duration).toBe('7200');
    expect(tec.dates.start).toEqual({ date: '2026-03-08 01:00:00.000000', timezone_type: 3, timezone: 'America/New_York' });
    expect(tec.dates.end_utc).toEqual({ date: '2026-03-08 08:00:00.000000', timezone_type: 3, timezone: 'UTC' });
    expect(tec.dates.end_site.date).toBe('2026-03-08 04:00:00.000000');
    expect(tec.is_past).toBe(true);
    expect(tec.cost).toBe('$5');
    expect(tec.venues).toEqual([]);
  });

  it('writes TEC’s schedule details: one day, several days, all day; the year only outside the current one', () => {
    expect(toTecEvent(event({}), context, now).schedule_details).toBe(
      '<span class="tribe-event-date-start">March 8 @ 1:00 am</span> - <span class="tribe-event-time">4:00 am</span>',
    );
    const multiday = toTecEvent(
      event({
        end_date: '2027-01-02 10:00:00',
        utc_end_date: '2027-01-02 15:00:00',
        start_date: '2026-12-31 20:00:00',
        utc_start_date: '2027-01-01 01:00:00',
      }),
      context,
      now,
    );
    expect(multiday.multiday).toBe(true);
    expect(multiday.schedule_details).toBe(
      '<span class="tribe-event-date-start">December 31 @ 8:00 pm</span> - <span class="tribe-event-date-end">January 2, 2027 @ 10:00 am</span>',
    );
    const allDay = toTecEvent(
      event({
        all_day: true,
        start_date: '2026-05-01 00:00:00',
        end_date: '2026-05-01 23:59:59',
        utc_start_date: '2026-05-01 04:00:00',
        utc_end_date: '2026-05-02 03:59:59',
      }),
      context,
      now,
    );
    expect(allDay.multiday).toBe(false);
    expect(allDay.schedule_details).toBe('<span class="tribe-event-date-start">May 1</span>');
  });

  it('does not count an event ending at midnight as running into the next day', () => {
    const tec = toTecEvent(
      event({
        start_date: '2026-05-01 20:00:00',
        end_date: '2026-05-02 00:00:00',
        utc_start_date: '2026-05-02 00:00:00',
        utc_end_date: '2026-05-02 04:00:00',
      }),
      context,
      now,
    );
    expect(tec.multiday).toBe(false);
  });
});
