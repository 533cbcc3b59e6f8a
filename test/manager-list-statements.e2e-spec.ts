import request from 'supertest';
import { checkout, fillCart, PURCHASER } from './helpers/buyers';
import { recordStatements, StatementRecorder } from './helpers/statement-recorder';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';
import { insertEvent } from './helpers/fixtures';
import { insertPool, insertTicket } from './helpers/ticketing-fixtures';

/**
 * What a manager's tickets and attendees lists send to the database once warm (the benchmark's
 * "Tickets list as a manager" and "Attendees list as a manager"): the caller's credentials in one
 * statement, then the list. Tickets: the total's cache generation, the page with its events and
 * pools, the page's attendees. Attendees: the page with its tickets, events and the attendee tally.
 */
describe('Manager list statements (e2e)', () => {
  let testApp: TestApp;
  let recorder: StatementRecorder;
  let editor: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    for (let index = 0; index < 3; index += 1) {
      const event = await insertEvent(testApp.dataSource);
      if (index === 0) await insertPool(testApp.dataSource, event.id, 50);
      const ticket = await insertTicket(testApp.dataSource, {
        eventId: event.id,
        price: '0.00',
        ...(index === 0 ? { capacityMode: 'capped' as const, capacity: 20 } : { capacity: 10 }),
      });
      const buyer = await fillCart(testApp, {}, 'tc', [{ ticket_id: ticket.id, quantity: 2 }]);
      await checkout(testApp, buyer, { provider: 'tc', purchaser: PURCHASER }).expect(201);
    }
    recorder = recordStatements(testApp.dataSource);
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** The statements of a second GET of `path` as the editor (the first warms the caches). */
  async function statementsOf(path: string): Promise<string[]> {
    await request(testApp.server).get(path).set('Authorization', editor.authorization).expect(200);
    recorder.clear();
    await request(testApp.server).get(path).set('Authorization', editor.authorization).expect(200);
    return recorder.statements;
  }

  it('answers the tickets list in three statements: credentials, the page with its events, pools and the total’s generation, its attendees', async () => {
    const statements = await statementsOf('/cal/tickets/v1/tickets');
    expect(statements).toEqual([
      expect.stringMatching(/^SELECT .* FROM users user LEFT JOIN application_passwords password /),
      expect.stringMatching(
        /^SELECT t\.id .*\(SELECT SUM\(generation_row\.generation\) FROM cache_generations generation_row WHERE generation_row\.name = 'tickets'\) AS generation_tickets FROM tickets t INNER JOIN events e .* LEFT JOIN ticket_pools page_pool /,
      ),
      expect.stringMatching(/^SELECT a\.id .* FROM attendees a /),
    ]);
  });

  it('counts a total again after a write, the page still reading the generation it is checked against', async () => {
    await statementsOf('/cal/tickets/v1/tickets');
    const event = await insertEvent(testApp.dataSource);
    await insertTicket(testApp.dataSource, { eventId: event.id, price: '0.00', capacity: 5 });
    // A write made outside the service moves no generation: the cached total stands until one does.
    await testApp.dataSource.query("UPDATE cache_generations SET generation = generation + 1 WHERE name = 'tickets'");
    recorder.clear();
    const response = await request(testApp.server).get('/cal/tickets/v1/tickets').set('Authorization', editor.authorization).expect(200);
    expect(response.headers['x-et-total']).toBe('4');
    expect(recorder.statements.filter((statement) => /^SELECT COUNT\(/.test(statement))).toHaveLength(1);
    expect(recorder.statements.filter((statement) => /^SELECT SUM\(generation/.test(statement))).toEqual([]);
  });

  it('answers the attendees list in two statements: credentials, the page with its tickets, events and the tally', async () => {
    const statements = await statementsOf('/cal/tickets/v1/attendees');
    expect(statements).toEqual([
      expect.stringMatching(/^SELECT .* FROM users user LEFT JOIN application_passwords password /),
      expect.stringMatching(
        /^SELECT attendee\.id .*\(SELECT COALESCE\(SUM\(tally\.delta\), 0\) FROM attendee_tallies tally\) AS attendee_tally FROM attendees attendee INNER JOIN events event .* LEFT JOIN tickets page_ticket /,
      ),
    ]);
  });
});
