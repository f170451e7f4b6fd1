import { test } from '@playwright/test';
import { signIn, unit } from './support';
test('shots', async ({ page }) => {
  await signIn(page, 'mark@helix.example');
  for (const [w, scheme] of [[375, 'light'], [375, 'dark'], [1440, 'light']] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto('/nodes/acme-h100-01');
    await unit(page, 'gpu-6').hover();
    await page.screenshot({ path: `/tmp/screens-shots/node-${w}-${scheme}.png`, fullPage: w === 375 });
  }
});
