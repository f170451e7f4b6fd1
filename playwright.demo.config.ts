import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run demo` (scripts/demo.ts) and its short mode in `npm test`: e2e/demo only, on a server
// of its own (e2e/support/own-server.ts), so no shared web server; the browser is the one the
// console tests drive, with the same settings.
const consoleProject = base.projects?.find((p) => p.name === 'console');
const SHORT = process.env.DEMO_SHORT === '1';

export default defineConfig({
  testDir: './e2e/demo',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    ...consoleProject?.use,
    // In the film a person should see each click land; the short mode plays at full speed.
    launchOptions: { ...consoleProject?.use?.launchOptions, slowMo: SHORT ? 0 : 120 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
