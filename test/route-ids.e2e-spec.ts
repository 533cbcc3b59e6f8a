import request from 'supertest';
import { registeredRoutes } from './security/registered-routes';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

/** The largest id an INT column holds, which no row has here, and an id past that range. */
const UNKNOWN_ID = '2147483647';
const TOO_LARGE_ID = '99999999999';

describe('Ids too large for the column (e2e)', () => {
  let testApp: TestApp;
  let administrator: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    administrator = await createUser(testApp, 'administrator');
  });

  afterAll(async () => {
    await testApp.close();
  });

  const call = (method: string, path: string) =>
    request(testApp.server)[method.toLowerCase() as 'get'](path).set('Authorization', administrator.authorization).send({});

  it.each([
    ['/cal/events/v1/events', 'rest-event-not-found'],
    ['/cal/events/v1/venues', 'venue-not-found'],
    ['/cal/events/v1/organizers', 'organizer-not-found'],
    ['/cal/events/v1/categories', 'term-not-found'],
    ['/cal/events/v1/tags', 'term-not-found'],
    ['/cal/tickets/v1/tickets', 'ticket-not-found'],
    ['/cal/tickets/v1/attendees', 'attendee-not-found'],
  ])('GET %s/{id} with an id too large for the column is 404 %s, not rest_no_route', async (collection, code) => {
    const response = await call('GET', `${collection}/${TOO_LARGE_ID}`).expect(404);
    expect(response.body).toMatchObject({ code, data: { status: 404 } });
    const huge = await call('GET', `${collection}/${'9'.repeat(300)}`).expect(404);
    expect(huge.body.code).toBe(code);
  });

  it('answers every route with an {id} for a too-large id as for an unknown one', async () => {
    const idRoutes = registeredRoutes(testApp.app).filter((route) => route.includes('/:id'));
    expect(idRoutes.length).toBeGreaterThan(30);
    for (const route of idRoutes) {
      const [method, template] = route.split(' ');
      // Every id of the path (`:id`, `:deliveryId`...) gets the same value.
      const unknown = await call(method, template.replace(/:[A-Za-z]+/g, UNKNOWN_ID));
      const tooLarge = await call(method, template.replace(/:[A-Za-z]+/g, TOO_LARGE_ID));
      expect({ route, status: tooLarge.status, code: tooLarge.body?.code }).toEqual({
        route,
        status: unknown.status,
        code: unknown.body?.code,
      });
      expect({ route, code: tooLarge.body?.code }).not.toEqual({ route, code: 'rest_no_route' });
    }
  });

  it('keeps rest_no_route for ids that are not digits', async () => {
    const response = await call('GET', '/cal/tickets/v1/tickets/12abc').expect(404);
    expect(response.body.code).toBe('rest_no_route');
  });
});
