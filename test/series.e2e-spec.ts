import * as nodeIcal from 'node-ical';
import request from 'supertest';
import { CLOCK } from '../src/common/clock';
import { Event } from '../src/events/event.entity';
import { OutboxMessage } from '../src/outbox/outbox-message.entity';
import { EventSeries, EventSeriesOccurrence } from '../src/series/event-series.entity';
import { Ticket } from '../src/tickets/ticket.entity';
import { SeriesHorizonService } from '../src/series/series-horizon.service';
import { SeriesService } from '../src/series/series.service';
import { insertAttendee, noncesOf } from './helpers/ticket-fixtures';
import { insertTicket, TestClock } from './helpers/ticketing-fixtures';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

// Five years ahead, so that a five-year daily series is created whole.
process.env.RECURRENCE_HORIZON_MONTHS = '60';
// The job is run by hand below.
process.env.SERIES_WORKER = 'false';

type Body = Record<string, any>;

describe('Recurring events (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let subscriber: TestUser;
  const clock = new TestClock();
  const base = '/cal/events/v1/events';
  const http = () => request(testApp.server);

  beforeAll(async () => {
    clock.set(new Date('2027-01-01T00:00:00Z'));
    testApp = await createTestApp({ overrides: [{ provide: CLOCK, useValue: clock }] });
    editor = await createUser(testApp, 'editor');
    author = await createUser(testApp, 'author');
    otherAuthor = await createUser(testApp, 'author');
    subscriber = await createUser(testApp, 'subscriber');
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function createSeries(user: TestUser, body: Body): Promise<Body> {
    const response = await http().post(base).set('Authorization', user.authorization).send(body);
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Body;
  }

  /** The series' events, oldest first, as the list shows them to `user` (anonymous: published only). */
  async function listSeries(seriesId: number, user?: TestUser): Promise<Body[]> {
    const call = http().get(
      `${base}?series=${seriesId}&start_date=2026-01-01&end_date=2033-12-31&per_page=100&status=${user ? 'publish,draft,pending' : 'publish'}`,
    );
    if (user) call.set('Authorization', user.authorization);
    const response = await call.expect(200);
    return response.body.events as Body[];
  }

  const yoga = (extra: Body = {}): Body => ({
    title: 'Yoga',
    start_date: '2027-03-15 10:00:00',
    end_date: '2027-03-15 11:00:00',
    timezone: 'Europe/Berlin',
    recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4',
    ...extra,
  });

  describe('creating', () => {
    it('stores one real event per occurrence, keeping 10:00 in Berlin across the March DST change', async () => {
      const first = await createSeries(editor, yoga());
      expect(first).toMatchObject({
        title: 'Yoga',
        slug: 'yoga-2027-03-15',
        start_date: '2027-03-15 10:00:00',
        series_id: expect.any(Number),
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4', rdate: [], exdate: [] },
      });
      const events = await listSeries(first.series_id);
      expect(events.map((event) => [event.slug, event.start_date, event.utc_start_date, event.series_id])).toEqual([
        ['yoga-2027-03-15', '2027-03-15 10:00:00', '2027-03-15 09:00:00', first.series_id],
        ['yoga-2027-03-22', '2027-03-22 10:00:00', '2027-03-22 09:00:00', first.series_id],
        ['yoga-2027-03-29', '2027-03-29 10:00:00', '2027-03-29 08:00:00', first.series_id],
        ['yoga-2027-04-05', '2027-04-05 10:00:00', '2027-04-05 08:00:00', first.series_id],
      ]);
      const rows = await testApp.dataSource.getRepository(Event).findBy({ title: 'Yoga' });
      expect(rows.filter((row) => row.id !== first.id).every((row) => row.postParentId === first.id)).toBe(true);
      expect(rows.find((row) => row.id === first.id)!.postParentId).toBeNull();

      // GET /events/{id} shows the series on every occurrence; plain events show nulls.
      const single = await http().get(`${base}/${events[2].id}`).expect(200);
      expect(single.body).toMatchObject({ series_id: first.series_id, recurrence: first.recurrence });
      const plain = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({ title: 'Once', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00' })
        .expect(201);
      expect(plain.body).toMatchObject({ series_id: null, recurrence: null });
    });

    it('keeps 09:30 in New York across the November change, with UNTIL and the object form', async () => {
      const first = await createSeries(editor, {
        title: 'Standup',
        start_date: '2027-11-05 09:30:00',
        end_date: '2027-11-05 09:45:00',
        timezone: 'America/New_York',
        recurrence: { rrule: 'FREQ=DAILY;UNTIL=20271109' },
      });
      const events = await listSeries(first.series_id);
      expect(events.map((event) => event.utc_start_date)).toEqual([
        '2027-11-05 13:30:00',
        '2027-11-06 13:30:00',
        '2027-11-07 14:30:00',
        '2027-11-08 14:30:00',
        '2027-11-09 14:30:00',
      ]);
      expect(events.every((event) => event.start_date.endsWith('09:30:00') && event.end_date.endsWith('09:45:00'))).toBe(true);
    });

    it('expands monthly by-day rules in a southern zone and applies EXDATE lines', async () => {
      const first = await createSeries(editor, {
        title: 'Meetup',
        start_date: '2027-03-02 19:00:00',
        end_date: '2027-03-02 21:00:00',
        timezone: 'Australia/Sydney',
        recurrence: 'RRULE:FREQ=MONTHLY;BYDAY=1TU;COUNT=4\nEXDATE:20270504T190000',
      });
      expect(first.recurrence).toEqual({ rrule: 'FREQ=MONTHLY;BYDAY=1TU;COUNT=4', rdate: [], exdate: ['2027-05-04 19:00:00'] });
      const events = await listSeries(first.series_id);
      // Sydney leaves daylight time on 4 April: +11 then +10.
      expect(events.map((event) => [event.start_date, event.utc_start_date])).toEqual([
        ['2027-03-02 19:00:00', '2027-03-02 08:00:00'],
        ['2027-04-06 19:00:00', '2027-04-06 09:00:00'],
        ['2027-06-01 19:00:00', '2027-06-01 09:00:00'],
      ]);
    });

    it('refuses bad rules with 400 naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        ['RRULE:FREQ=HOURLY', 'recurrence'],
        ['RRULE:FREQ=WEEKLY;BYHOUR=9', 'recurrence'],
        ['RRULE:FREQ=WEEKLY;COUNT=x', 'recurrence'],
        ['SOMETHING', 'recurrence'],
        [{ rrule: 'FREQ=WEEKLY', exdate: ['tomorrow'] }, 'recurrence.exdate'],
        [{ rdate: ['2027-03-20'] }, 'recurrence.rrule'],
        [42, 'recurrence'],
        // Daily for nearly five years plus 400 extra dates: over the cap of 2000 per write.
        [
          {
            rrule: 'FREQ=DAILY',
            rdate: Array.from({ length: 400 }, (_, day) =>
              new Date(Date.UTC(2027, 3, 1 + day, 12)).toISOString().slice(0, 19).replace('T', ' '),
            ),
          },
          'recurrence',
        ],
      ];
      for (const [recurrence, field] of cases) {
        const response = await http()
          .post(base)
          .set('Authorization', editor.authorization)
          .send(yoga({ title: 'Refused', recurrence }))
          .expect(400);
        expect(response.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { [field]: expect.any(String) } } });
      }
      expect(await testApp.dataSource.getRepository(Event).countBy({ title: 'Refused' })).toBe(0);
    });

    it('answers 401 to anonymous callers and 403 to subscribers', async () => {
      await http().post(base).send(yoga()).expect(401);
      const response = await http().post(base).set('Authorization', subscriber.authorization).send(yoga()).expect(403);
      expect(response.body.code).toBe('rest_forbidden');
    });

    it('creates a five-year daily series (1 826 occurrences) with its links in a bounded number of statements', async () => {
      const venue = await http()
        .post('/cal/events/v1/venues')
        .set('Authorization', editor.authorization)
        .send({ venue: 'Riverside park', city: 'New York' })
        .expect(201);
      const organizer = await http()
        .post('/cal/events/v1/organizers')
        .set('Authorization', editor.authorization)
        .send({ organizer: 'Morning club' })
        .expect(201);
      // A single event already holds the slug one occurrence would get: that occurrence gets -2.
      await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({ title: 'Daily practice', slug: 'daily-practice-2027-06-01', start_date: '2027-06-01 20:00', end_date: '2027-06-01 21:00' })
        .expect(201);
      const body = {
        title: 'Daily practice',
        start_date: '2027-01-01 07:00:00',
        end_date: '2027-01-01 08:00:00',
        timezone: 'America/New_York',
        venue: venue.body.id,
        organizer: [organizer.body.id],
        categories: ['Wellbeing'],
        tags: ['morning', 'outdoor'],
        recurrence: { rrule: 'FREQ=DAILY;COUNT=1826' },
      };
      const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
      const cpuBefore = process.cpuUsage();
      const started = Date.now();
      let first: Body;
      let statements: number;
      try {
        first = await createSeries(editor, body);
      } finally {
        statements = spy.mock.calls.length;
        spy.mockRestore();
      }
      const elapsed = Date.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      console.info(
        `five-year daily series: ${elapsed} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU, ` +
          `${statements} statements (${testApp.dataSource.options.type})`,
      );
      // However many occurrences: the bulk path writes each kind of row with a few multi-row statements.
      expect(statements).toBeLessThanOrEqual(100);

      const occurrences = testApp.dataSource.getRepository(EventSeriesOccurrence);
      expect(await occurrences.countBy({ seriesId: first.series_id })).toBe(1826);
      const events = testApp.dataSource.getRepository(Event);
      expect(await events.countBy({ postParentId: first.id })).toBe(1825);
      // New York: EST (UTC-5) until 14 March 2027 and from 7 November 2027, EDT (UTC-4) between.
      const day = async (slug: string) => {
        const event = await events.findOneByOrFail({ slug });
        return [event.startLocal, event.startUtc.toISOString(), event.endLocal, event.postParentId];
      };
      expect(await day('daily-practice-2027-03-13')).toEqual([
        '2027-03-13 07:00:00',
        '2027-03-13T12:00:00.000Z',
        '2027-03-13 08:00:00',
        first.id,
      ]);
      expect(await day('daily-practice-2027-03-14')).toEqual([
        '2027-03-14 07:00:00',
        '2027-03-14T11:00:00.000Z',
        '2027-03-14 08:00:00',
        first.id,
      ]);
      expect(await day('daily-practice-2027-11-07')).toEqual([
        '2027-11-07 07:00:00',
        '2027-11-07T12:00:00.000Z',
        '2027-11-07 08:00:00',
        first.id,
      ]);
      expect(await day('daily-practice-2031-07-01')).toEqual([
        '2031-07-01 07:00:00',
        '2031-07-01T11:00:00.000Z',
        '2031-07-01 08:00:00',
        first.id,
      ]);
      expect(await day('daily-practice-2031-12-31')).toEqual([
        '2031-12-31 07:00:00',
        '2031-12-31T12:00:00.000Z',
        '2031-12-31 08:00:00',
        first.id,
      ]);
      expect(await day('daily-practice-2027-06-01-2')).toEqual([
        '2027-06-01 07:00:00',
        '2027-06-01T11:00:00.000Z',
        '2027-06-01 08:00:00',
        first.id,
      ]);

      // Every occurrence has the first one's links, and the terms count them all.
      const linked = async (table: string) =>
        Number(
          (
            await testApp.dataSource.query<Array<{ total: number | string }>>(
              `SELECT COUNT(*) AS total FROM ${table} l INNER JOIN event_series_occurrences o ON o.event_id = l.event_id WHERE o.series_id = ?`,
              [first.series_id],
            )
          )[0].total,
        );
      expect(await linked('event_venue_links')).toBe(1826);
      expect(await linked('event_organizer_links')).toBe(1826);
      expect(await linked('event_category_links')).toBe(1826);
      expect(await linked('event_tag_links')).toBe(3652);
      const category = await http().get(`/cal/events/v1/categories/${first.categories[0].id}`).expect(200);
      expect(category.body.count).toBe(1826);
      const byVenue = await http().get(`${base}?venue=${venue.body.id}&start_date=2031-12-01&end_date=2031-12-31&per_page=50`).expect(200);
      expect(byVenue.headers['x-tec-total']).toBe('31');

      // One notification for the series, not one per occurrence.
      const messages = await testApp.dataSource.getRepository(OutboxMessage).findBy({ channel: 'event' });
      const ofSeries = messages.filter((message) => {
        const data = JSON.parse(message.payload) as Body;
        return data.series_id === first.series_id || (data.event_id !== undefined && data.title === 'Daily practice');
      });
      expect(ofSeries.map((message) => message.type).sort()).toEqual(['event.published', 'event.published', 'series.published']);
      const published = JSON.parse(ofSeries.find((message) => message.type === 'series.published')!.payload) as Body;
      expect(published).toMatchObject({
        series_id: first.series_id,
        first_event_id: first.id,
        title: 'Daily practice',
        timezone: 'America/New_York',
        occurrence_count: 1826,
        first_start_date: '2027-01-01 07:00:00',
        last_start_date: '2031-12-31 07:00:00',
      });
      expect(published.event_ids).toHaveLength(1826);
      expect(published.event_ids[0]).toBe(first.id);

      // Lists read a page of them as fast as any page: one extra primary-key lookup per page for the series.
      const listStarted = Date.now();
      const page = await http().get(`${base}?series=${first.series_id}&per_page=50&start_date=2027-01-01&end_date=2032-01-01`).expect(200);
      console.info(`list page of a 1 826-event series: ${Date.now() - listStarted} ms`);
      expect(page.headers['x-tec-total']).toBe('1826');
    }, 300_000);
  });

  describe('editing', () => {
    it('scope=this detaches one occurrence; scope=all updates the rest and leaves it alone', async () => {
      const first = await createSeries(editor, yoga({ title: 'Pilates' }));
      const [, second, third] = await listSeries(first.series_id);
      const detached = await http()
        .patch(`${base}/${second.id}?scope=this`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Pilates (guest teacher)' })
        .expect(200);
      expect(detached.body).toMatchObject({ title: 'Pilates (guest teacher)', series_id: first.series_id });
      // Without a scope an occurrence is edited alone as well.
      await http().patch(`${base}/${third.id}`).set('Authorization', editor.authorization).send({ excerpt: 'Bring a mat' }).expect(200);

      const all = await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Pilates II' })
        .expect(200);
      expect(all.body.title).toBe('Pilates II');
      const titles = (await listSeries(first.series_id)).map((event) => event.title);
      expect(titles).toEqual(['Pilates II', 'Pilates (guest teacher)', 'Pilates', 'Pilates II']);
      const detachedRows = await testApp.dataSource
        .getRepository(EventSeriesOccurrence)
        .findBy({ seriesId: first.series_id, detached: true });
      expect(detachedRows.map((row) => row.eventId).sort()).toEqual([second.id, third.id].sort());
    });

    it('scope=all moves every occurrence by the edited one’s shift and keeps wall-clock times', async () => {
      const first = await createSeries(editor, yoga({ title: 'Tai chi' }));
      const before = await listSeries(first.series_id);
      await http()
        .patch(`${base}/${before[1].id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ start_date: '2027-03-22 11:30:00', end_date: '2027-03-22 12:30:00' })
        .expect(200);
      const after = await listSeries(first.series_id);
      expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
      expect(after.map((event) => [event.start_date, event.utc_start_date])).toEqual([
        ['2027-03-15 11:30:00', '2027-03-15 10:30:00'],
        ['2027-03-22 11:30:00', '2027-03-22 10:30:00'],
        ['2027-03-29 11:30:00', '2027-03-29 09:30:00'],
        ['2027-04-05 11:30:00', '2027-04-05 09:30:00'],
      ]);
    });

    it('scope=all with a new rule keeps occurrences on dates it keeps, deletes the others and creates new ones', async () => {
      const first = await createSeries(editor, yoga({ title: 'Swim', recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4' }));
      const before = await listSeries(first.series_id);
      const response = await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ recurrence: { rrule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3' } })
        .expect(200);
      expect(response.body.recurrence).toEqual({ rrule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3', rdate: [], exdate: [] });
      const after = await listSeries(first.series_id);
      expect(after.map((event) => event.start_date)).toEqual(['2027-03-15 10:00:00', '2027-03-29 10:00:00', '2027-04-12 10:00:00']);
      expect(after[0].id).toBe(before[0].id);
      expect(after[1].id).toBe(before[2].id);
      expect(await testApp.dataSource.getRepository(Event).countBy({ id: before[1].id })).toBe(0);
    });

    it('refuses with 409 when occurrences with attendees would move, naming them, and changes nothing', async () => {
      const first = await createSeries(editor, yoga({ title: 'Spin' }));
      const events = await listSeries(first.series_id);
      const ticket = await insertTicket(testApp.dataSource, { eventId: events[2].id });
      await insertAttendee(testApp.dataSource, ticket);
      const response = await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ start_date: '2027-03-15 18:00:00', end_date: '2027-03-15 19:00:00' })
        .expect(409);
      expect(response.body).toEqual({
        code: 'series-occurrences-have-attendees',
        message: expect.stringContaining(String(events[2].id)),
        data: { status: 409, occurrences: [events[2].id] },
      });
      expect((await listSeries(first.series_id)).map((event) => event.start_date.slice(11))).toEqual([
        '10:00:00',
        '10:00:00',
        '10:00:00',
        '10:00:00',
      ]);
      // Field edits that move nothing go through.
      await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Spin class' })
        .expect(200);
      // So does deleting the others; not the whole series.
      const refused = await http().delete(`${base}/${first.id}?scope=all`).set('Authorization', editor.authorization).expect(409);
      expect(refused.body.data.occurrences).toEqual([events[2].id]);
    });

    it('names an occurrence with attendees once when it both moves and is dropped by the new rule', async () => {
      const first = await createSeries(editor, yoga({ title: 'Rowing' }));
      const events = await listSeries(first.series_id);
      const ticket = await insertTicket(testApp.dataSource, { eventId: events[1].id });
      await insertAttendee(testApp.dataSource, ticket);
      // 18:00 fortnightly from 15 March: 15 and 29 March, 12 April; the edited 22 March is dropped.
      const response = await http()
        .patch(`${base}/${events[1].id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({
          start_date: '2027-03-22 18:00:00',
          end_date: '2027-03-22 19:00:00',
          recurrence: { rrule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3' },
        })
        .expect(409);
      expect(response.body.data.occurrences).toEqual([events[1].id]);
    });

    it('refuses scope=all or following sent at a detached occurrence, which they leave alone; a delete takes it along', async () => {
      const first = await createSeries(editor, yoga({ title: 'Judo' }));
      const [, second] = await listSeries(first.series_id);
      await http()
        .patch(`${base}/${second.id}?scope=this`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Judo (guest)' })
        .expect(200);
      for (const scope of ['all', 'following']) {
        const refused = await http()
          .patch(`${base}/${second.id}?scope=${scope}`)
          .set('Authorization', editor.authorization)
          .send({ title: 'Judo II' })
          .expect(400);
        expect(refused.body).toMatchObject({
          code: 'rest_invalid_param',
          data: { params: { scope: expect.stringContaining('this one was edited on its own (detached)') } },
        });
      }
      expect((await listSeries(first.series_id)).map((event) => event.title)).toEqual(['Judo', 'Judo (guest)', 'Judo', 'Judo']);
      await http().delete(`${base}/${second.id}?scope=following`).set('Authorization', editor.authorization).expect(200);
      expect((await listSeries(first.series_id)).map((event) => event.id)).toEqual([first.id]);
    });

    it('scope=following splits the series: COUNT goes on in the new one, the old one ends with UNTIL', async () => {
      const first = await createSeries(editor, yoga({ title: 'Choir', recurrence: 'RRULE:FREQ=WEEKLY;COUNT=5' }));
      const events = await listSeries(first.series_id);
      const response = await http()
        .patch(`${base}/${events[2].id}?scope=following`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Choir (new hall)' })
        .expect(200);
      const newSeriesId = response.body.series_id as number;
      expect(newSeriesId).not.toBe(first.series_id);
      expect(response.body.recurrence.rrule).toBe('FREQ=WEEKLY;COUNT=3');
      const old = await listSeries(first.series_id);
      expect(old.map((event) => event.title)).toEqual(['Choir', 'Choir']);
      expect(old[0].recurrence.rrule).toBe('FREQ=WEEKLY;UNTIL=20270329T095959');
      const split = await listSeries(newSeriesId);
      expect(split.map((event) => [event.id, event.title])).toEqual(events.slice(2).map((event) => [event.id, 'Choir (new hall)']));
      const rows = await testApp.dataSource.getRepository(Event).findBy({ title: 'Choir (new hall)' });
      expect(rows.find((row) => row.id === events[2].id)!.postParentId).toBeNull();
      expect(rows.filter((row) => row.id !== events[2].id).map((row) => row.postParentId)).toEqual([events[2].id, events[2].id]);
    });

    it('checks rights as for events and validates the scope', async () => {
      const first = await createSeries(author, yoga({ title: 'Own series' }));
      await http().patch(`${base}/${first.id}?scope=all`).send({ title: 'x' }).expect(401);
      const forbidden = await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', otherAuthor.authorization)
        .send({ title: 'x' })
        .expect(403);
      expect(forbidden.body.code).toBe('rest_forbidden');
      await http().delete(`${base}/${first.id}?scope=all`).set('Authorization', otherAuthor.authorization).expect(403);
      const badScope = await http()
        .patch(`${base}/${first.id}?scope=some`)
        .set('Authorization', author.authorization)
        .send({ title: 'x' })
        .expect(400);
      expect(badScope.body.data.params).toEqual({ scope: expect.any(String) });
      const thisWithRule = await http()
        .patch(`${base}/${first.id}`)
        .set('Authorization', author.authorization)
        .send({ recurrence: 'RRULE:FREQ=DAILY' })
        .expect(400);
      expect(thisWithRule.body.data.params).toEqual({ recurrence: expect.any(String) });
      const plain = await http()
        .post(base)
        .set('Authorization', author.authorization)
        .send({ title: 'Single', start_date: '2027-06-01 10:00', end_date: '2027-06-01 11:00' })
        .expect(201);
      const notSeries = await http()
        .patch(`${base}/${plain.body.id}?scope=all`)
        .set('Authorization', author.authorization)
        .send({ title: 'x' })
        .expect(400);
      expect(notSeries.body.data.params).toEqual({ scope: expect.any(String) });
      await http()
        .patch(`${base}/${plain.body.id}`)
        .set('Authorization', author.authorization)
        .send({ recurrence: 'RRULE:FREQ=DAILY' })
        .expect(400);
      const ownEdit = await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', author.authorization)
        .send({ title: 'Own series, renamed' })
        .expect(200);
      expect(ownEdit.body.title).toBe('Own series, renamed');
      const unknown = await http().get(`${base}?series=999999`).expect(400);
      expect(unknown.body.data.params).toEqual({ series: expect.any(String) });
    });
  });

  describe('deleting', () => {
    it('scope=this trashes one occurrence and adds its date to EXDATE; following ends the series; all removes the rest', async () => {
      const first = await createSeries(editor, yoga({ title: 'Dance', recurrence: 'RRULE:FREQ=WEEKLY;COUNT=5' }));
      const events = await listSeries(first.series_id);
      const trashed = await http().delete(`${base}/${events[1].id}?scope=this`).set('Authorization', editor.authorization).expect(200);
      expect(trashed.body).toMatchObject({ id: events[1].id, status: 'trash' });
      expect((await http().get(`${base}/${first.id}`).expect(200)).body.recurrence.exdate).toEqual(['2027-03-22 10:00:00']);

      const following = await http()
        .delete(`${base}/${events[3].id}?scope=following&force=true`)
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(following.body.id).toBe(events[3].id);
      expect((await listSeries(first.series_id)).map((event) => event.id)).toEqual([events[0].id, events[2].id]);
      expect((await http().get(`${base}/${first.id}`).expect(200)).body.recurrence.rrule).toBe('FREQ=WEEKLY;UNTIL=20270405T095959');

      await http().delete(`${base}/${events[2].id}?scope=all&force=true`).set('Authorization', editor.authorization).expect(200);
      expect(await testApp.dataSource.getRepository(EventSeries).countBy({ id: first.series_id })).toBe(0);
      // The trashed one went for good too (force).
      expect(await testApp.dataSource.getRepository(Event).countBy({ title: 'Dance' })).toBe(0);
    });

    it('makes the next occurrence not in the trash first when the first event is deleted for good', async () => {
      const first = await createSeries(editor, yoga({ title: 'Karate', recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3' }));
      const events = await listSeries(first.series_id);
      await http().delete(`${base}/${events[1].id}?scope=this`).set('Authorization', editor.authorization).expect(200);
      await http().delete(`${base}/${first.id}?scope=this&force=true`).set('Authorization', editor.authorization).expect(200);
      const series = await testApp.dataSource.getRepository(EventSeries).findOneByOrFail({ id: first.series_id });
      expect(series.firstEventId).toBe(events[2].id);
      const rows = await testApp.dataSource.getRepository(Event).findBy({ title: 'Karate' });
      expect(Object.fromEntries(rows.map((row) => [row.id, row.postParentId]))).toEqual({
        [events[1].id]: events[2].id,
        [events[2].id]: null,
      });
    });
  });

  describe('horizon', () => {
    it('extends open-ended series as time passes, once however many instances run the job', async () => {
      const first = await createSeries(editor, {
        title: 'Book club',
        start_date: '2027-01-20 19:00:00',
        end_date: '2027-01-20 21:00:00',
        timezone: 'Europe/Paris',
        recurrence: 'RRULE:FREQ=MONTHLY',
      });
      const count = () => testApp.dataSource.getRepository(EventSeriesOccurrence).countBy({ seriesId: first.series_id });
      // 60 months from 2027-01-01: January 2027 to December 2031.
      expect(await count()).toBe(60);
      const job = testApp.app.get(SeriesHorizonService);
      expect(await job.extendDueSeries()).toBe(0);
      clock.set(new Date('2027-04-02T00:00:00Z'));
      try {
        const [one, two] = await Promise.all([job.extendDueSeries(), job.extendDueSeries()]);
        expect(one + two).toBe(3);
        expect(await count()).toBe(63);
        const last = await testApp.dataSource.getRepository(Event).findOne({ where: { title: 'Book club' }, order: { startUtc: 'DESC' } });
        expect(last).toMatchObject({ startLocal: '2032-03-20 19:00:00', slug: 'book-club-2032-03-20', postParentId: first.id });
      } finally {
        clock.set(new Date('2027-01-01T00:00:00Z'));
      }
    });

    it('gives occurrences created later the fields of the last scope=all edit', async () => {
      const first = await createSeries(editor, {
        title: 'Chess club',
        start_date: '2027-01-12 19:00:00',
        end_date: '2027-01-12 21:00:00',
        timezone: 'Europe/Paris',
        recurrence: 'RRULE:FREQ=MONTHLY',
      });
      await http()
        .patch(`${base}/${first.id}?scope=all`)
        .set('Authorization', editor.authorization)
        .send({ title: 'Chess and Go club' })
        .expect(200);
      clock.set(new Date('2027-06-02T00:00:00Z'));
      try {
        expect(await testApp.app.get(SeriesService).extend(first.series_id)).toBe(5);
      } finally {
        clock.set(new Date('2027-01-01T00:00:00Z'));
      }
      const last = await testApp.dataSource.getRepository(Event).findOne({
        where: { postParentId: first.id },
        order: { startUtc: 'DESC' },
      });
      expect(last).toMatchObject({ startLocal: '2032-05-12 19:00:00', title: 'Chess and Go club' });
      expect(await testApp.dataSource.getRepository(Event).countBy({ title: 'Chess club' })).toBe(0);
    });
  });

  describe('tickets', () => {
    it('copies a ticket created with scope=all to every occurrence, each with its own capacity, and to later ones', async () => {
      const first = await createSeries(editor, { ...yoga({ title: 'Ticketed class' }), recurrence: 'RRULE:FREQ=MONTHLY' });
      const events = await listSeries(first.series_id, editor);
      const { add_ticket_nonce } = await noncesOf(testApp, editor);
      const created = await http()
        .post('/cal/tickets/v1/tickets?scope=all')
        .set('Authorization', editor.authorization)
        .send({
          add_ticket_nonce,
          post_id: events[1].id,
          provider: 'tc',
          name: 'Entry',
          price: '10',
          ticket: { mode: 'own', capacity: 12 },
        })
        .expect(201);
      expect(created.body.post_id).toBe(events[1].id);
      const tickets = await testApp.dataSource.getRepository(Ticket).findBy({ name: 'Entry' });
      expect(tickets.map((ticket) => ticket.eventId).sort((a, b) => a - b)).toEqual(events.map((event) => event.id).sort((a, b) => a - b));
      const other = await http()
        .get(`/cal/tickets/v1/tickets/${tickets.find((ticket) => ticket.eventId === events[3].id)!.id}`)
        .set('Authorization', editor.authorization)
        .expect(200);
      expect(other.body.capacity_details).toMatchObject({ available: 12, max: 12, sold: 0, global_stock_mode: 'own' });

      // One occurrence only, without scope.
      const single = await http()
        .post('/cal/tickets/v1/tickets')
        .set('Authorization', editor.authorization)
        .send({ add_ticket_nonce, post_id: events[2].id, provider: 'rsvp', name: 'Guest list', ticket: { mode: 'own', capacity: 5 } })
        .expect(201);
      expect(await testApp.dataSource.getRepository(Ticket).countBy({ name: 'Guest list' })).toBe(1);
      expect(single.body.post_id).toBe(events[2].id);

      // The horizon job gives new occurrences the series' tickets.
      clock.set(new Date('2027-03-02T00:00:00Z'));
      try {
        await testApp.app.get(SeriesHorizonService).extendDueSeries();
      } finally {
        clock.set(new Date('2027-01-01T00:00:00Z'));
      }
      const after = await testApp.dataSource.getRepository(EventSeriesOccurrence).findBy({ seriesId: first.series_id });
      expect(after.length).toBeGreaterThan(events.length);
      expect(await testApp.dataSource.getRepository(Ticket).countBy({ name: 'Entry' })).toBe(after.length);

      const notSeries = await http()
        .post(base)
        .set('Authorization', editor.authorization)
        .send({ title: 'Lone', start_date: '2027-06-01 10:00', end_date: '2027-06-01 11:00' })
        .expect(201);
      const refused = await http()
        .post('/cal/tickets/v1/tickets?scope=all')
        .set('Authorization', editor.authorization)
        .send({
          add_ticket_nonce,
          post_id: notSeries.body.id,
          provider: 'tc',
          name: 'Nope',
          price: '5',
          ticket: { mode: 'own', capacity: 1 },
        })
        .expect(400);
      expect(refused.body.data.params).toEqual({ scope: expect.any(String) });
      const otherUser = await http()
        .post('/cal/tickets/v1/tickets?scope=all')
        .set('Authorization', otherAuthor.authorization)
        .send({
          add_ticket_nonce: (await noncesOf(testApp, otherAuthor)).add_ticket_nonce,
          post_id: events[1].id,
          provider: 'tc',
          name: 'Nope',
          price: '5',
          ticket: { mode: 'own', capacity: 1 },
        })
        .expect(403);
      expect(otherUser.body.code).toBeDefined();
      expect(await testApp.dataSource.getRepository(Ticket).countBy({ name: 'Nope' })).toBe(0);
    });
  });

  describe('at scale', () => {
    /** Runs `work`, answering its result and how many SQL statements it sent. */
    async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const spy = jest.spyOn(testApp.dataSource.logger, 'logQuery');
      try {
        const result = await work();
        return { result, statements: spy.mock.calls.length };
      } finally {
        spy.mockRestore();
      }
    }

    it('copies tickets to every occurrence of a five-year daily series and extends it, in bounded numbers of statements', async () => {
      const first = await createSeries(editor, {
        title: 'Open gym',
        start_date: '2027-01-01 18:00:00',
        end_date: '2027-01-01 20:00:00',
        timezone: 'Europe/Berlin',
        categories: ['Sport'],
        recurrence: 'RRULE:FREQ=DAILY',
      });
      const occurrences = () => testApp.dataSource.getRepository(EventSeriesOccurrence).findBy({ seriesId: first.series_id });
      // 60 months from 2027-01-01: every day of 2027 to 2031.
      expect(await occurrences()).toHaveLength(1826);
      const { add_ticket_nonce } = await noncesOf(testApp, editor);
      const copy = (ticket: Body) =>
        counted(() =>
          http()
            .post('/cal/tickets/v1/tickets?scope=all')
            .set('Authorization', editor.authorization)
            .send({ add_ticket_nonce, post_id: first.id, provider: 'tc', price: '8', ...ticket })
            .expect(201),
        );
      const own = await copy({ name: 'Gym entry', ticket: { mode: 'own', capacity: 12 } });
      const shared = await copy({ name: 'Gym pass', ticket: { mode: 'global', event_capacity: 40 } });
      console.info(`ticket copied to 1 826 occurrences: ${own.statements} and ${shared.statements} statements`);
      expect(own.statements).toBeLessThanOrEqual(60);
      expect(shared.statements).toBeLessThanOrEqual(60);
      expect(own.result.body).toMatchObject({ post_id: first.id, capacity_details: { max: 12, available: 12 } });

      const countTickets = async () => {
        const rows = await testApp.dataSource.query<
          Array<{ name: string; tickets: number | string; counters: number | string; pools: number | string }>
        >(
          `SELECT t.name, COUNT(*) AS tickets, COUNT(c.ticket_id) AS counters, COUNT(p.event_id) AS pools FROM tickets t
           INNER JOIN event_series_occurrences o ON o.event_id = t.event_id
           LEFT JOIN ticket_capacity_counters c ON c.ticket_id = t.id LEFT JOIN ticket_pools p ON p.event_id = t.event_id AND p.capacity = 40
           WHERE o.series_id = ? GROUP BY t.name ORDER BY t.name`,
          [first.series_id],
        );
        return rows.map((row) => [row.name, Number(row.tickets), Number(row.counters), Number(row.pools)]);
      };
      expect(await countTickets()).toEqual([
        ['Gym entry', 1826, 1826, 1826],
        ['Gym pass', 1826, 1826, 1826],
      ]);
      const lastDay = await testApp.dataSource.getRepository(Event).findOneByOrFail({ slug: 'open-gym-2031-12-31' });
      const lastPass = await testApp.dataSource.getRepository(Ticket).findOneByOrFail({ eventId: lastDay.id, name: 'Gym pass' });
      const pass = await http().get(`/cal/tickets/v1/tickets/${lastPass.id}`).set('Authorization', editor.authorization).expect(200);
      expect(pass.body.capacity_details).toMatchObject({ available: 40, global_stock_mode: 'global' });

      // Three months on, the horizon job adds January to March 2032, each day with both tickets.
      clock.set(new Date('2027-04-01T00:00:00Z'));
      let extended: { result: number; statements: number };
      try {
        extended = await counted(() => testApp.app.get(SeriesService).extend(first.series_id));
      } finally {
        clock.set(new Date('2027-01-01T00:00:00Z'));
      }
      console.info(`horizon extension by ${extended.result} occurrences: ${extended.statements} statements`);
      expect(extended.result).toBe(91);
      expect(extended.statements).toBeLessThanOrEqual(100);
      expect(await occurrences()).toHaveLength(1917);
      expect(await countTickets()).toEqual([
        ['Gym entry', 1917, 1917, 1917],
        ['Gym pass', 1917, 1917, 1917],
      ]);
      const category = await http().get(`/cal/events/v1/categories/${first.categories[0].id}`).expect(200);
      expect(category.body.count).toBe(1917);
      const added = await testApp.dataSource.getRepository(Event).findOneByOrFail({ slug: 'open-gym-2032-03-31' });
      // Berlin is on summer time (UTC+2) from 28 March 2032.
      expect([added.startLocal, added.startUtc.toISOString(), added.postParentId]).toEqual([
        '2032-03-31 18:00:00',
        '2032-03-31T16:00:00.000Z',
        first.id,
      ]);
      const extension = (await testApp.dataSource.getRepository(OutboxMessage).findBy({ type: 'series.extended' }))
        .map((message) => JSON.parse(message.payload) as Body)
        .find((data) => data.series_id === first.series_id)!;
      expect(extension).toMatchObject({
        occurrence_count: 91,
        first_start_date: '2032-01-01 18:00:00',
        last_start_date: '2032-03-31 18:00:00',
      });
      expect(extension.event_ids).toHaveLength(91);
    }, 300_000);
  });

  describe('iCalendar', () => {
    it('writes a series as RRULE with EXDATE and RECURRENCE-ID overrides that a parser reads back', async () => {
      const first = await createSeries(editor, yoga({ title: 'Calendar class', recurrence: 'RRULE:FREQ=WEEKLY;UNTIL=20270412T235959' }));
      const events = await listSeries(first.series_id);
      await http().delete(`${base}/${events[1].id}`).set('Authorization', editor.authorization).expect(200);
      await http()
        .patch(`${base}/${events[2].id}`)
        .set('Authorization', editor.authorization)
        .send({ start_date: '2027-03-30 18:00:00', end_date: '2027-03-30 19:00:00' })
        .expect(200);

      const response = await http().get(`/cal/events/v1/series/${first.series_id}/ics`).expect(200);
      expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(response.text).toContain('RRULE:FREQ=WEEKLY;UNTIL=20270412T215959Z');
      expect(response.text).toContain('EXDATE;TZID=Europe/Berlin:20270322T100000');
      expect(response.text).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20270329T100000');
      const parsed = nodeIcal.sync.parseICS(response.text);
      const master = Object.values(parsed).find((component) => component.type === 'VEVENT') as nodeIcal.VEvent;
      expect(master.uid).toBe(`series-${first.series_id}@127.0.0.1`);
      const starts = master.rrule!.all().map((date) => date.toISOString());
      // rrule (inside node-ical) gives UTC instants: 09:00Z before the DST change, 08:00Z after.
      expect(starts).toEqual([
        '2027-03-15T09:00:00.000Z',
        '2027-03-22T09:00:00.000Z',
        '2027-03-29T08:00:00.000Z',
        '2027-04-05T08:00:00.000Z',
        '2027-04-12T08:00:00.000Z',
      ]);
      expect(Object.values(master.exdate ?? {}).map((date) => (date as Date).toISOString())).toEqual(['2027-03-22T09:00:00.000Z']);
      const overrides = Object.values(master.recurrences ?? {});
      expect(overrides).toHaveLength(1);
      expect((overrides[0].start as Date).toISOString()).toBe('2027-03-30T16:00:00.000Z');

      await http().get('/cal/events/v1/series/999999/ics').expect(404);
    });

    it('answers 403 for a draft series to anonymous callers', async () => {
      const first = await createSeries(editor, yoga({ title: 'Draft series', status: 'draft' }));
      const response = await http().get(`/cal/events/v1/series/${first.series_id}/ics`).expect(403);
      expect(response.body.code).toBe('event-not-accessible');
      await http().get(`/cal/events/v1/series/${first.series_id}/ics`).set('Authorization', editor.authorization).expect(200);
    });
  });
});
