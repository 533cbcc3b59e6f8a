// Runs in each e2e test file after the test framework is installed: removes the file's data
// folder made by setup-env.ts once the file's tests are done.
import { rmSync } from 'node:fs';

afterAll(() => {
  if (process.env.DATA_DIR) rmSync(process.env.DATA_DIR, { recursive: true, force: true });
});
