// Run only by db/testing/exit-code.test.ts, through its own config: a test that must fail.
import { expect, it } from 'vitest';

it('fails on purpose', () => {
  expect('failed').toBe('passed');
});
