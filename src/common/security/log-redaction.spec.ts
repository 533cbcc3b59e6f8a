import { redactError, redactRequest, redactUrl } from './log-redaction';

describe('log redaction', () => {
  it('replaces the values of secret query parameters, keeping their names and the rest', () => {
    expect(redactUrl('/cal/tickets/v1/tickets?add_ticket_nonce=abc123&per_page=5')).toBe(
      '/cal/tickets/v1/tickets?add_ticket_nonce=[redacted]&per_page=5',
    );
    expect(redactUrl('/cal/tickets/v1/qr?security_code=XYZ&Security_Code=XYZ')).toBe(
      '/cal/tickets/v1/qr?security_code=[redacted]&Security_Code=[redacted]',
    );
    expect(redactUrl('/x?edit%5Fticket%5Fnonce=abc&token[]=t')).toBe('/x?edit%5Fticket%5Fnonce=[redacted]&token[]=[redacted]');
    expect(redactUrl('/cal/events/v1/events?search=jazz')).toBe('/cal/events/v1/events?search=jazz');
    expect(redactUrl('/cal/tickets/v1/attendees?search=ada%40example.org')).toBe('/cal/tickets/v1/attendees?search=[redacted]');
    expect(redactUrl('/cal/events/v1')).toBe('/cal/events/v1');
    expect(redactUrl('/x?%E0%A4%A=1&flag')).toBe('/x?%E0%A4%A=1&flag');
  });

  it('redacts the parsed query of a logged request the same way', () => {
    expect(
      redactRequest({ method: 'GET', url: '/cal/tickets/v1/cart?cart_token=t1', query: { cart_token: 't1', provider: 'tc' } }),
    ).toEqual({
      method: 'GET',
      url: '/cal/tickets/v1/cart?cart_token=[redacted]',
      query: { cart_token: '[redacted]', provider: 'tc' },
    });
  });

  it('keeps duplicated values out of logged database errors', () => {
    const error = Object.assign(new Error("Duplicate entry 'cart:secret.token-key' for key 'UQ_idempotency'"), { code: 'ER_DUP_ENTRY' });
    const logged = redactError(error) as { message: string; stack: string; code: string };
    expect(logged.message).toBe("Duplicate entry '[redacted]' for key 'UQ_idempotency'");
    expect(logged.stack).not.toContain('secret.token');
    expect(logged.code).toBe('ER_DUP_ENTRY');
  });
});
