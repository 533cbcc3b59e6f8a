import { WebhookSecretBox } from './webhook-secret-box';

describe('WebhookSecretBox', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('seals a secret so that the stored value does not contain it, and opens it again', () => {
    const box = new WebhookSecretBox('a-secret-of-sixteen-chars');
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealed.length).toBeLessThanOrEqual(128);
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed);
  });

  it('refuses a value sealed with another NONCE_SECRET or altered', () => {
    const sealed = new WebhookSecretBox('a-secret-of-sixteen-chars').seal(secret);
    expect(() => new WebhookSecretBox('another-secret-of-sixteen').open(sealed)).toThrow();
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => new WebhookSecretBox('a-secret-of-sixteen-chars').open(altered)).toThrow();
  });

  it('reads a secret stored in clear before sealing existed', () => {
    expect(new WebhookSecretBox('a-secret-of-sixteen-chars').open(secret)).toBe(secret);
  });
});
