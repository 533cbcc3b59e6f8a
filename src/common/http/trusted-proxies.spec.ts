import express from 'express';
import { rememberTrust } from './trusted-proxies';

/** Express's own compiled test for a TRUST_PROXY value. */
function compiledTrust(value: number | string): (address: string, hop: number) => boolean {
  const app = express();
  app.set('trust proxy', value);
  return app.get('trust proxy fn') as (address: string, hop: number) => boolean;
}

describe('rememberTrust', () => {
  it.each<[number | string, string, number]>([
    ['loopback', '127.0.0.1', 0],
    ['loopback', '::1', 0],
    ['loopback', '203.0.113.9', 0],
    ['loopback', '::ffff:127.0.0.1', 0],
    ['10.0.0.0/8, 192.168.1.1', '10.20.30.40', 1],
    ['10.0.0.0/8, 192.168.1.1', '192.168.1.2', 1],
    ['10.0.0.0/8, 192.168.1.1', 'not an address', 0],
    [2, '198.51.100.1', 0],
    [2, '198.51.100.1', 1],
    [2, '198.51.100.1', 2],
  ])('answers TRUST_PROXY=%s for %s at hop %s as Express does, asked once or again', (value, address, hop) => {
    const trust = compiledTrust(value);
    const remembered = rememberTrust(trust);
    expect(remembered(address, hop)).toBe(trust(address, hop));
    expect(remembered(address, hop)).toBe(trust(address, hop));
  });

  it('asks Express once per address and hop, and keeps no more than its bound', () => {
    const asked: string[] = [];
    const remembered = rememberTrust((address, hop) => {
      asked.push(`${hop} ${address}`);
      return address.startsWith('10.');
    }, 3);
    expect([remembered('10.0.0.1', 0), remembered('10.0.0.1', 0), remembered('10.0.0.1', 1)]).toEqual([true, true, true]);
    expect(asked).toEqual(['0 10.0.0.1', '1 10.0.0.1']);
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) expect(remembered(address, 0)).toBe(false);
    // The bound was reached: the memory started again, and the first address is asked anew.
    remembered('10.0.0.1', 0);
    expect(asked.filter((question) => question === '0 10.0.0.1')).toHaveLength(2);
  });
});
