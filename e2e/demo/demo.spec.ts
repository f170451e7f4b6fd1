import fs from 'node:fs';
import path from 'node:path';
import { expect, request as requestContexts, test, type Page } from '@playwright/test';
import { signIn } from '../console/support';
import { useOwnServer } from '../support/own-server';
import { Film, showCaption, writeIndex, type Caption, type Told } from './stage';
import { PERSONAS, STORY, apiAs, type PersonaKey, type Stage } from './story';

// `npm run demo` (issue 24 point 5): the story of e2e/demo/story.ts played on a server and a
// freshly seeded fleet of its own, each step as its persona, with a caption, a screenshot, and
// (unless DEMO_SHORT=1, the mode `npm test` runs) a film assembled into a video. Either mode
// asserts each step's outcome, so the demo cannot rot unnoticed.
const SHORT = process.env.DEMO_SHORT === '1';
const OUT = path.resolve('demo-output');
/** How long the film stays on a caption: the action before it is played, the outcome after. */
const HOLD_BEFORE_MS = SHORT ? 0 : 1_500;
const HOLD_AFTER_MS = SHORT ? 0 : 3_000;

const server = useOwnServer();

test('the demo story, step by step', async ({ browser }) => {
  test.setTimeout(SHORT ? 110_000 : 600_000);
  const started = Date.now();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });

  const request = await requestContexts.newContext({ baseURL: server.base });
  const pages = {} as Record<PersonaKey, Page>;
  const captions = new Map<Page, Caption>();
  for (const [key, persona] of Object.entries(PERSONAS) as [PersonaKey, (typeof PERSONAS)[PersonaKey]][]) {
    const context = await browser.newContext({ baseURL: server.base, viewport: { width: 1280, height: 800 }, colorScheme: persona.theme, timezoneId: 'UTC' });
    const page = await context.newPage();
    await signIn(page, persona.email);
    // A navigation inside a step starts a new document: lay the step's caption over it again.
    page.on('domcontentloaded', () => {
      const caption = captions.get(page);
      if (caption) showCaption(page, caption).catch(() => {});
    });
    pages[key] = page;
  }
  const stage: Stage = { pages, api: apiAs(request, server.keys), memo: {} };
  const film = SHORT ? null : new Film(path.join(OUT, 'frames'));
  film?.start();

  const told: Told[] = [];
  for (const [i, step] of STORY.entries()) {
    const page = pages[step.persona];
    await page.bringToFront();
    film?.follow(page);
    const caption: Caption = { step: i + 1, of: STORY.length, who: step.who ?? PERSONAS[step.persona].label, action: step.action };
    captions.set(page, caption);
    await showCaption(page, caption);
    await page.waitForTimeout(HOLD_BEFORE_MS);

    await test.step(`${i + 1}. ${step.slug}`, async () => {
      await step.play(stage);
      const shows = step.shows(stage);
      await expect(shows).toBeVisible();
      await shows.scrollIntoViewIfNeeded();
    });
    const outcome = step.outcome(stage.memo);
    captions.set(page, { ...caption, outcome });
    await showCaption(page, { ...caption, outcome });
    const screenshot = `step-${String(i + 1).padStart(2, '0')}-${step.slug}.png`;
    await page.screenshot({ path: path.join(OUT, screenshot), caret: 'initial' });
    told.push({ step: i + 1, slug: step.slug, who: caption.who, action: step.action, outcome, screenshot });
    await page.waitForTimeout(HOLD_AFTER_MS);
  }

  await film?.stop();
  const video = film ? path.join(OUT, 'demo.mp4') : null;
  const filmed = film && video ? film.assemble(video) : null;
  fs.rmSync(path.join(OUT, 'frames'), { recursive: true, force: true });
  const seconds = (Date.now() - started) / 1000;
  writeIndex(OUT, told, video, { seconds, when: new Date(started) });
  await request.dispose();

  const files = fs.readdirSync(OUT).map((f) => `  ${f} ${(fs.statSync(path.join(OUT, f)).size / 1024).toFixed(0)} kB`);
  console.log(
    [
      `The demo played ${STORY.length} steps in ${seconds.toFixed(1)} s${SHORT ? ' (short mode: no film)' : ''}${filmed ? `; the video holds ${filmed.frames} frames, ${filmed.seconds.toFixed(0)} s` : ''}.`,
      `${OUT}:`,
      ...files,
    ].join('\n'),
  );
});
