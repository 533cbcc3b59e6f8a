import {
  constantTimeEqual,
  generateApplicationPassword,
  hashApplicationPassword,
  hashLoginPassword,
  verifyLoginPassword,
} from './passwords';

describe('passwords', () => {
  it('generates 24-character application passwords shown in groups of four', () => {
    const password = generateApplicationPassword();
    expect(password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(generateApplicationPassword()).not.toBe(password);
  });

  it('ignores spaces when hashing application passwords', () => {
    expect(hashApplicationPassword('abcd efgh ijkl')).toBe(hashApplicationPassword('abcdefghijkl'));
    expect(hashApplicationPassword('abcd')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes login passwords with a salt and verifies them', async () => {
    const first = await hashLoginPassword('correct horse');
    const second = await hashLoginPassword('correct horse');
    expect(first).not.toBe(second);
    expect(first.startsWith('scrypt$')).toBe(true);
    await expect(verifyLoginPassword('correct horse', first)).resolves.toBe(true);
    await expect(verifyLoginPassword('wrong horse', first)).resolves.toBe(false);
    await expect(verifyLoginPassword('correct horse', 'garbage')).resolves.toBe(false);
  });

  it('compares strings of any length without throwing', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});
