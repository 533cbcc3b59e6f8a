import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of an export's download link: an HMAC of the job's id and creation time with the
 * service's secret (NONCE_SECRET), so any instance checks it and nobody can make one for another job.
 * The link lasts as long as the job's file (410 after).
 */
export function downloadToken(secret: string, jobId: number, createdAt: Date): string {
  return createHmac('sha256', secret).update(`export-download:${jobId}:${createdAt.getTime()}`).digest('base64url');
}

export function isValidDownloadToken(secret: string, jobId: number, createdAt: Date, token: string): boolean {
  const expected = Buffer.from(downloadToken(secret, jobId, createdAt));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
