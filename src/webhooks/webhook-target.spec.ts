import { isPublicAddress, parseWebhookUrl, resolveWebhookTarget, WebhookTargetError } from './webhook-target';

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('refuses %s as not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('accepts %s as public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  it('accepts http and https URLs only, without credentials', () => {
    expect(parseWebhookUrl('https://hooks.example.org/x').hostname).toBe('hooks.example.org');
    for (const raw of [
      'ftp://example.org/',
      'file:///etc/passwd',
      'gopher://x',
      'javascript:alert(1)',
      'no url',
      'https://user:pw@example.org/',
    ]) {
      expect(() => parseWebhookUrl(raw)).toThrow(WebhookTargetError);
    }
  });

  it('checks what the host resolves to, not its name', async () => {
    await expect(resolveWebhookTarget('http://localhost:8080/x', false)).rejects.toThrow(/private or loopback/);
    await expect(resolveWebhookTarget('http://[::1]/x', false)).rejects.toThrow(/private or loopback/);
    await expect(resolveWebhookTarget('http://localhost:8080/x', true)).resolves.toMatchObject({
      address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
    });
    await expect(resolveWebhookTarget('https://93.184.216.34/x', false)).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
  });
});
