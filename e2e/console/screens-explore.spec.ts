import { test } from '@playwright/test';
import { signIn } from './support';

const pages = ['/', '/nodes/acme-h100-01', '/nodes/acme-h100-01/reservations/res-nimbus-01', '/audit', '/vms', '/vms/vm-orbit-train-01', '/capacity', '/api-keys', '/notifications', '/nope-404'];

test('explore', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, 'mark@helix.example');
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    for (const p of pages) {
      await page.goto(p);
      await page.waitForTimeout(300);
      const r = await page.evaluate(() => {
        const vw = innerWidth;
        const wide = [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > vw + 0.5)
          .slice(0, 8)
          .map((e) => `${e.tagName}.${(e.getAttribute('class') ?? '').slice(0, 60)} r=${Math.round(e.getBoundingClientRect().right)}`);
        return { sw: document.documentElement.scrollWidth, vw, wide };
      });
      console.log(width, p, r.sw, JSON.stringify(r.wide, null, 1));
      await page.screenshot({ path: `/tmp/screens-shots/${width}${p.replaceAll('/', '_')}.png`, fullPage: true });
    }
  }
});
