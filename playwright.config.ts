import { defineConfig, devices } from '@playwright/test';
import { resolveBrowser } from './e2e/support/browser';
import { E2E_PORT, stateFile } from './e2e/support/state';

process.env.E2E_STATE_FILE ??= stateFile();

/** CHROMIUM_PATH, a system Chromium, Playwright's own, else the npm package's (see e2e/support/browser.ts). */
const browser = resolveBrowser();

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'api', testMatch: /api\/.*\.spec\.ts/ },
    {
      name: 'console',
      testMatch: /console\/.*\.spec\.ts/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: browser.executablePath,
          // Playwright's `env` replaces the browser's whole environment, so it starts from ours.
          ...(browser.env ? { env: { ...process.env, ...browser.env } } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node_modules/.bin/tsx e2e/support/serve.ts',
    url: `http://127.0.0.1:${E2E_PORT}/`,
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
