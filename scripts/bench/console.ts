/**
 * Console timings in Chromium (issue 10, P3): navigation → unit grid visible on the node page and
 * → fleet table visible on the fleet page, warm (one navigation first, then the median of 10).
 * An init script watches the DOM from the navigation's start and records `performance.now()`
 * (milliseconds since the navigation started) at the first animation frame after the selector
 * matches an element with a size — the first frame that can show it.
 */
import { chromium, type Browser } from '@playwright/test';
import { resolveBrowser } from '../../e2e/support/browser';
import type { Session } from '../stress/http';
import { median } from './report';

/** The node page's grid: its unit cells carry `data-unit-id`. */
export const GRID_SELECTOR = '[data-unit-id]';
/** The fleet page's table: a row linking to a node. */
export const FLEET_SELECTOR = 'tbody tr a[href^="/nodes/"]';

export async function launchBrowser(): Promise<Browser> {
  const b = resolveBrowser();
  return chromium.launch({
    executablePath: b.executablePath,
    args: ['--no-sandbox', '--disable-gpu'],
    ...(b.env ? { env: { ...process.env, ...b.env } } : {}),
  });
}

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Window needs an interface
  interface Window {
    __benchVisibleAt?: number;
  }
}

/**
 * Median time from navigation start to `selector` visible at `base + path`, signed in with `session`.
 * @returns the median and every sample, in ms, and the median time to first byte (the server's share).
 * @throws Error when the selector does not show within 30 s.
 */
export async function timeNavigation(
  browser: Browser,
  base: string,
  session: Session,
  path: string,
  selector: string,
  samples = 10,
): Promise<{ median: number; all: number[]; ttfbMedian: number }> {
  const context = await browser.newContext({ baseURL: base });
  const [name, ...rest] = session.cookie.split('=');
  await context.addCookies([{ name: name!, value: rest.join('='), domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' }]);
  // Plain script text: a function would be serialised as compiled here, helpers and all.
  await context.addInitScript({
    content: `(() => {
      const sel = ${JSON.stringify(selector)};
      const observer = new MutationObserver(() => {
        const el = document.querySelector(sel);
        if (!el || el.getBoundingClientRect().width === 0) return;
        observer.disconnect();
        requestAnimationFrame(() => { if (window.__benchVisibleAt === undefined) window.__benchVisibleAt = performance.now(); });
      });
      observer.observe(document, { childList: true, subtree: true });
    })();`,
  });
  const page = await context.newPage();
  // The server's share: the navigation's time to first byte (Navigation Timing's responseStart).
  const once = async () => {
    await page.goto(path, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__benchVisibleAt !== undefined, undefined, { timeout: 30_000 });
    return page.evaluate(() => ({
      visible: window.__benchVisibleAt!,
      ttfb: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseStart ?? Number.NaN,
    }));
  };
  await once(); // warm: compiled routes, cached chunks, an open connection
  const all: number[] = [];
  const ttfb: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = await once();
    all.push(t.visible);
    ttfb.push(t.ttfb);
  }
  await context.close();
  return { median: median(all), all, ttfbMedian: median(ttfb) };
}
