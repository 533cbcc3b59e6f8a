import request from 'supertest';
import { fullTextWords } from '../src/catalogue/event-reads.repository';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const EVENTS = '/cal/events/v1/events';

describe('Events search (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    const events = [
      { title: 'Jazz night at the harbour', description: '<p>Swing and bebop until late.</p>' },
      { title: 'Open air cinema', description: '<p>Bring a blanket; jazz trio before the film.</p>' },
      { title: 'Chamber music', excerpt: 'Strings and a little JAZZ improvisation' },
      { title: 'Pottery workshop', description: '<p>Clay, wheels and glaze.</p>' },
    ];
    for (const [index, body] of events.entries()) {
      await request(testApp.server)
        .post(EVENTS)
        .set('Authorization', editor.authorization)
        .send({ status: 'publish', start_date: `2030-03-0${index + 1} 19:00:00`, end_date: `2030-03-0${index + 1} 22:00:00`, ...body })
        .expect(201);
    }
  });

  afterAll(async () => {
    await testApp.close();
  });

  async function search(words: string): Promise<{ titles: string[]; total: number }> {
    const response = await request(testApp.server)
      .get(EVENTS)
      .query({ search: words, start_date: '2030-01-01', end_date: '2030-12-31' })
      .expect(200);
    return { titles: response.body.events.map((event: { title: string }) => event.title), total: Number(response.headers['x-tec-total']) };
  }

  it('finds a word in the title, the description or the excerpt, in any case, and counts what it lists', async () => {
    const found = await search('jazz');
    expect(found.titles).toEqual(['Jazz night at the harbour', 'Open air cinema', 'Chamber music']);
    expect(found.total).toBe(3);
  });

  it('finds the beginning of a word, and a phrase', async () => {
    expect((await search('pott')).titles).toEqual(['Pottery workshop']);
    expect((await search('jazz trio')).titles).toEqual(['Open air cinema']);
    expect((await search('glaze')).total).toBe(1);
  });

  it('finds nothing for words no event holds, and takes short words and symbols as plain text', async () => {
    expect(await search('tuba')).toEqual({ titles: [], total: 0 });
    expect((await search('a')).total).toBeGreaterThan(0);
    expect(await search('+jazz* -film')).toEqual({ titles: [], total: 0 });
  });

  it('reads the full-text index only for words it can answer', () => {
    expect(fullTextWords('Jazz  Trio')).toEqual(['jazz', 'trio']);
    expect(fullTextWords('été')).toEqual(['été']);
    expect(fullTextWords('a jazz')).toBeNull();
    expect(fullTextWords('+jazz*')).toBeNull();
    expect(fullTextWords('jazz "trio"')).toBeNull();
  });
});
