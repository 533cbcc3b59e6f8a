import { downloadToken, isValidDownloadToken } from './download-token';

describe('export download tokens', () => {
  const created = new Date('2026-11-26T08:00:00.123Z');

  it('accepts the token of the job and refuses those of another job, time or secret', () => {
    const token = downloadToken('secret', 7, created);
    expect(isValidDownloadToken('secret', 7, created, token)).toBe(true);
    expect(isValidDownloadToken('secret', 8, created, token)).toBe(false);
    expect(isValidDownloadToken('secret', 7, new Date(created.getTime() + 1), token)).toBe(false);
    expect(isValidDownloadToken('other', 7, created, token)).toBe(false);
    expect(isValidDownloadToken('secret', 7, created, `${token}x`)).toBe(false);
    expect(isValidDownloadToken('secret', 7, created, '')).toBe(false);
  });
});
