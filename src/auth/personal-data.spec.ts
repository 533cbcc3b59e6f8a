import { maskEmail, maskPersonName, redactExportCell, redactPersonalData, shouldRedact } from './personal-data';
import type { AuthenticatedUser } from './roles';
import type { TokenGrant } from './scopes';

function grant(pii: 'full' | 'redacted'): TokenGrant {
  return { id: 1, name: 't', scopes: new Set(), limitEvents: null, pii };
}

describe('personal data masking', () => {
  it('masks an email keeping the first letters and the top-level domain', () => {
    expect(maskEmail('jane.doe@example.org')).toBe('j***@e***.org');
    expect(maskEmail('a@mail.example.co.uk')).toBe('a***@m***.uk');
    expect(maskEmail('not-an-email@')).toBe('***');
  });

  it('masks a name word by word', () => {
    expect(maskPersonName('Jane Doe')).toBe('J*** D***');
    expect(maskPersonName('Émile')).toBe('É***');
  });

  it('masks attendees, purchasers, waitlist entries and door attendees, and leaves events alone', () => {
    const order = {
      id: 3,
      purchaser: { name: 'Jane Doe', email: 'jane@example.org' },
      attendees: [
        {
          id: 9,
          title: 'John Roe',
          optout: false,
          email: 'john@example.org',
          ticket: { id: 1, title: 'General admission' },
          information: { diet: 'vegan', size: ['L'], age: 33 },
        },
      ],
    };
    const redacted = redactPersonalData(order);
    expect(redacted).toEqual({
      id: 3,
      purchaser: { name: 'J*** D***', email: 'j***@e***.org' },
      attendees: [
        {
          id: 9,
          title: 'J*** R***',
          optout: false,
          email: 'j***@e***.org',
          ticket: { id: 1, title: 'General admission' },
          information: { diet: '***', size: ['***'], age: '***' },
        },
      ],
    });
    expect(order.purchaser.name).toBe('Jane Doe');
    expect(redactPersonalData({ ticket_id: 1, name: 'Ann Lee', checkin_secret: 's' }).name).toBe('A*** L***');
    expect(redactPersonalData({ id: 1, title: 'Concert', name: 'Main list', description: 'Ask info@venue.example' })).toEqual({
      id: 1,
      title: 'Concert',
      name: 'Main list',
      description: 'Ask i***@v***.example',
    });
    expect(redactPersonalData([{ holder_name: 'Ann Lee', purchaser_email: 'x@y.de' }])).toEqual([
      { holder_name: 'A*** L***', purchaser_email: 'x***@y***.de' },
    ]);
  });

  it('keeps what is not personal: numbers, booleans, nulls, dates', () => {
    const when = new Date('2027-01-01T00:00:00Z');
    const redacted = redactPersonalData({ n: 1, b: true, z: null, when });
    expect(redacted).toEqual({ n: 1, b: true, z: null, when });
    expect(redacted.when).not.toBe(when);
  });

  it('redacts for tokens created with pii redacted only', () => {
    const user: AuthenticatedUser = { id: 1, login: 'a', role: 'administrator' };
    expect(shouldRedact(undefined)).toBe(false);
    expect(shouldRedact(user)).toBe(false);
    expect(shouldRedact({ ...user, token: grant('full') })).toBe(false);
    expect(shouldRedact({ ...user, token: grant('redacted') })).toBe(true);
  });

  it('masks export cells by their column', () => {
    expect(redactExportCell('holder_email', 'ann@example.org')).toBe('a***@e***.org');
    expect(redactExportCell('purchaser_name', 'Ann Lee')).toBe('A*** L***');
    expect(redactExportCell('question:diet', 'vegan')).toBe('***');
    expect(redactExportCell('registration', '{"diet":"vegan"}')).toBe('***');
    expect(redactExportCell('event', 'Concert')).toBe('Concert');
    expect(redactExportCell('price', 25)).toBe(25);
    expect(redactExportCell('holder_name', null)).toBe(null);
  });
});
