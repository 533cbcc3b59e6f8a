import request from 'supertest';
import { Category } from '../src/categories/category.entity';
import { Tag } from '../src/tags/tag.entity';
import { createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

const API = '/cal/events/v1';

describe('What an event body may link and create (e2e)', () => {
  let testApp: TestApp;
  let editor: TestUser;
  let contributor: TestUser;
  let otherContributor: TestUser;
  let draftVenueOfOther: number;
  let draftOrganizerOfOther: number;
  const http = () => request(testApp.server);

  const EVENT = { title: 'Linked', start_date: '2027-08-01 10:00:00', end_date: '2027-08-01 12:00:00' };
  const SECRET_ADDRESS = '7 Hidden Lane';
  const SECRET_PHONE = '+1 555 0100';

  function createEventAs(user: TestUser, body: Record<string, unknown>) {
    return http()
      .post(`${API}/events`)
      .set('Authorization', user.authorization)
      .send({ ...EVENT, ...body });
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    editor = await createUser(testApp, 'editor');
    contributor = await createUser(testApp, 'contributor');
    otherContributor = await createUser(testApp, 'contributor');
    const venue = await http()
      .post(`${API}/venues`)
      .set('Authorization', otherContributor.authorization)
      .send({ venue: 'Private hall', address: SECRET_ADDRESS, phone: SECRET_PHONE })
      .expect(201);
    expect(venue.body.status).not.toBe('publish');
    draftVenueOfOther = venue.body.id;
    const organizer = await http()
      .post(`${API}/organizers`)
      .set('Authorization', otherContributor.authorization)
      .send({ organizer: 'Private people', phone: SECRET_PHONE, email: 'private@example.org' })
      .expect(201);
    draftOrganizerOfOther = organizer.body.id;
    // The contributor cannot read them directly.
    await http().get(`${API}/venues/${draftVenueOfOther}`).set('Authorization', contributor.authorization).expect(403);
  });

  afterAll(async () => {
    await testApp.close();
  });

  describe('venues and organizers', () => {
    it("refuses to link another contributor's draft venue with 403 venue-not-accessible, showing nothing of it", async () => {
      const response = await createEventAs(contributor, { venue: draftVenueOfOther });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'venue-not-accessible', data: { status: 403 } });
      expect(JSON.stringify(response.body)).not.toContain(SECRET_ADDRESS);
    });

    it("refuses to link another contributor's draft organizer with 403 organizer-not-accessible, also in a list and as {id}", async () => {
      for (const organizer of [draftOrganizerOfOther, [draftOrganizerOfOther], [{ id: draftOrganizerOfOther }]]) {
        const response = await createEventAs(contributor, { organizer });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: 'organizer-not-accessible', data: { status: 403 } });
        expect(JSON.stringify(response.body)).not.toContain(SECRET_PHONE);
      }
    });

    it('refuses the same on update, and leaves the event as it was', async () => {
      const event = await createEventAs(contributor, {}).expect(201);
      const response = await http()
        .patch(`${API}/events/${event.body.id}`)
        .set('Authorization', contributor.authorization)
        .send({ venue: draftVenueOfOther });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('venue-not-accessible');
      const read = await http().get(`${API}/events/${event.body.id}`).set('Authorization', contributor.authorization).expect(200);
      expect(read.body.venue).toEqual([]);
    });

    it('links what the caller may read: its own drafts and published ones; editors link anyone’s', async () => {
      const own = await http()
        .post(`${API}/venues`)
        .set('Authorization', contributor.authorization)
        .send({ venue: 'My own hall' })
        .expect(201);
      const published = await http()
        .post(`${API}/venues`)
        .set('Authorization', editor.authorization)
        .send({ venue: 'Public hall', status: 'publish' })
        .expect(201);
      expect((await createEventAs(contributor, { venue: own.body.id }).expect(201)).body.venue.id).toBe(own.body.id);
      expect((await createEventAs(contributor, { venue: published.body.id }).expect(201)).body.venue.id).toBe(published.body.id);
      const byEditor = await createEventAs(editor, { venue: draftVenueOfOther, organizer: [draftOrganizerOfOther] }).expect(201);
      expect(byEditor.body.venue.id).toBe(draftVenueOfOther);
    });

    it('still answers 400 naming the field for an id that is nothing', async () => {
      const response = await createEventAs(contributor, { venue: 987_654 });
      expect(response.status).toBe(400);
      expect(response.body.data.params).toHaveProperty('venue');
    });
  });

  describe('categories and tags named in an event body', () => {
    it('refuses a contributor a category or tag that does not exist with 403 rest_forbidden naming the field, as POST /categories does, creating nothing', async () => {
      await http().post(`${API}/categories`).set('Authorization', contributor.authorization).send({ name: 'Direct attempt' }).expect(403);
      for (const field of ['categories', 'tags'] as const) {
        const name = `Invented ${field}`;
        const response = await createEventAs(contributor, { [field]: [name] });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({
          code: 'rest_forbidden',
          data: { status: 403, params: { [field]: expect.stringContaining(name) } },
        });
      }
      expect(await testApp.dataSource.getRepository(Category).countBy({ name: 'Invented categories' })).toBe(0);
      expect(await testApp.dataSource.getRepository(Tag).countBy({ name: 'Invented tags' })).toBe(0);
    });

    it('lets a contributor name existing terms, by name or id', async () => {
      const category = await http()
        .post(`${API}/categories`)
        .set('Authorization', editor.authorization)
        .send({ name: 'Existing category' })
        .expect(201);
      const tag = await http().post(`${API}/tags`).set('Authorization', editor.authorization).send({ name: 'Existing tag' }).expect(201);
      const response = await createEventAs(contributor, { categories: ['existing CATEGORY'], tags: [tag.body.id] }).expect(201);
      expect(response.body.categories.map((term: { id: number }) => term.id)).toEqual([category.body.id]);
      expect(response.body.tags.map((term: { id: number }) => term.id)).toEqual([tag.body.id]);
    });

    it('lets an editor create terms by naming them', async () => {
      const response = await createEventAs(editor, { categories: ['Editor invented'], tags: ['Editor tag'] }).expect(201);
      expect(response.body.categories[0].name).toBe('Editor invented');
      expect(response.body.tags[0].name).toBe('Editor tag');
    });
  });
});
