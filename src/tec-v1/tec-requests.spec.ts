import { createEventBody, createTicketBody, eventsQuery, OPEN_WINDOW, updateEventBody, updateTicketBody } from './tec-requests';

describe('tec/v1 inputs as the events and tickets namespaces take them', () => {
  it('renames event fields, keeps id lists as lists, defaults the status to publish on create only, drops the rest', () => {
    const body = {
      title: 'T',
      content: '<p>x</p>',
      venues: 7,
      organizers: '1, 2',
      tribe_events_cat: [3],
      date_gmt: '2025-01-01',
      comment_status: 'open',
    };
    expect(createEventBody.translate(body)).toEqual({
      title: 'T',
      description: '<p>x</p>',
      date_utc: '2025-01-01',
      venue: [7],
      organizer: ['1', '2'],
      categories: [3],
      status: 'publish',
    });
    expect(updateEventBody.translate({ featured: true })).toEqual({ featured: true });
    expect(createEventBody.tecName).toMatchObject({ description: 'content', venue: 'venues', categories: 'tribe_events_cat' });
  });

  it('lists events without an implicit window and with TEC’s page size', () => {
    expect(eventsQuery.translate({ search: 'jazz', include: '1,2' })).toEqual({
      page: undefined,
      per_page: 10,
      search: 'jazz',
      start_date: OPEN_WINDOW.start,
      end_date: OPEN_WINDOW.end,
    });
    expect(() => eventsQuery.translate({ per_page: '101' })).toThrow('Invalid parameter(s): per_page');
  });

  it('reads tickets as TEC sends them: event or event_id, capacity or stock, stock modes, Y-m-d[ H:i:s] sale dates', () => {
    expect(
      createTicketBody.translate({
        title: 'GA',
        event_id: 5,
        stock: 40,
        stock_mode: 'capped',
        event_capacity: 100,
        start_date: '2025-05-01 08:30:00',
        end_date: '2025-06-01',
        provider: 'Tickets Commerce',
        sale_price: 3,
      }),
    ).toEqual({
      provider: 'tc',
      name: 'GA',
      post_id: 5,
      start_date: '2025-05-01',
      start_time: '08:30:00',
      end_date: '2025-06-01',
      ticket: { mode: 'capped', capacity: 40, event_capacity: 100 },
    });
    expect(createTicketBody.translate({ title: 'Free', event: 5 }).ticket).toEqual({ mode: '' });
    expect(createTicketBody.translate({ title: 'Free', event: 5, capacity: -1 }).ticket).toEqual({ mode: '' });
    expect(createTicketBody.translate({ title: 'x', event: 5, stock_mode: 'unlimited' }).ticket).toEqual({ mode: '' });
    expect(updateTicketBody.translate({ price: 9 })).toEqual({ provider: 'tc', price: 9 });
    expect(updateTicketBody.translate({ event: 4 })).toMatchObject({ post_id: 4 });
    expect(createTicketBody.tecName).toMatchObject({ post_id: 'event', name: 'title', 'ticket[capacity]': 'capacity' });
  });
});
