import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests import server code directly.
      'server-only': path.resolve(import.meta.dirname, 'db/testing/empty-module.ts'),
    },
  },
  test: {
    include: ['server/**/*.test.ts', 'clients/**/*.test.ts', 'db/**/*.test.ts', 'components/**/*.test.ts', 'components/**/*.test.tsx', 'app/**/*.test.ts'],
    globalSetup: ['db/testing/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
