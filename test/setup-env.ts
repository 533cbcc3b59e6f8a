// Runs before each e2e test file, before any module is imported.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL || 'sqlite::memory:';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL || 'silent';
process.env.NONCE_SECRET = 'test-nonce-secret-0123456789abcdef';
process.env.CAL_ADMIN_USER = 'admin';
process.env.CAL_ADMIN_PASSWORD = 'admin-password-for-tests';
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'cal-test-'));
delete process.env.PUBLIC_URL;
delete process.env.API_ROOT;
delete process.env.API_PREFIX;
delete process.env.SITE_TIMEZONE;
