import { defineConfig } from 'vitest/config';
import base from '../../../vitest.config';

// The project's own config (its global setup starts embedded PostgreSQL), running only the
// fixture that fails on purpose. Spread, not mergeConfig: that would append to `include`.
export default defineConfig({ ...base, test: { ...base.test, include: ['db/testing/exit-code/*.fixture.ts'] } });
