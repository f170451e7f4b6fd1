/**
 * What turns the story's steps into something to watch: the caption laid over the page, the
 * frames of the film and their assembly into a video by the ffmpeg that
 * `@ffmpeg-installer/ffmpeg` ships (Playwright's `recordVideo` needs an ffmpeg of its own that it
 * cannot download here), and `demo-output/index.html`, which tells the story with the pictures
 * and needs nothing beside itself.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

export type Caption = { step: number; of: number; who: string; action: string; outcome?: string };

/**
 * Lays the caption over the page, or replaces it: a `role=status` popover, so it sits in the top
 * layer above a modal dialog (raised again whenever a dialog opens), lets every click through
 * and is read as a status, not a landmark. Coloured with the theme's own tokens
 * (app/globals.css), so it reads in the light and the dark theme alike.
 */
export async function showCaption(page: Page, caption: Caption): Promise<void> {
  await page.evaluate((c) => {
    const id = 'demo-caption';
    let box = document.getElementById(id);
    if (!box) {
      box = document.createElement('div');
      box.id = id;
      box.setAttribute('role', 'status');
      box.popover = 'manual';
      // CSSOM, not a style attribute: the Content-Security-Policy allows no inline style.
      Object.assign(box.style, {
        inset: 'auto 16px 16px auto',
        margin: '0',
        width: 'min(400px, calc(100vw - 32px))',
        padding: '12px 16px',
        border: '2px solid var(--color-accent-line)',
        borderRadius: '12px',
        background: 'var(--color-surface)',
        color: 'var(--color-ink)',
        boxShadow: '0 10px 30px var(--color-backdrop)',
        font: '14px/1.4 var(--font-sans, system-ui)',
        pointerEvents: 'none',
      });
      document.body.append(box);
      const raise = () => {
        if (box!.matches(':popover-open')) box!.hidePopover();
        box!.showPopover();
      };
      // A modal dialog opened later would cover it: the later one in the top layer is on top.
      new MutationObserver(raise).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['open'] });
    }
    const line = (text: string, style: Partial<CSSStyleDeclaration>) => {
      const p = document.createElement('p');
      p.textContent = text;
      Object.assign(p.style, { margin: '0', ...style });
      return p;
    };
    box.replaceChildren(
      line(`Step ${c.step} of ${c.of}`, { fontSize: '12px', color: 'var(--color-ink-3)', textTransform: 'uppercase', letterSpacing: '0.05em' }),
      line(c.who, { fontWeight: '600', color: 'var(--color-accent-ink)' }),
      line(c.action, { marginTop: '4px' }),
      ...(c.outcome ? [line(`→ ${c.outcome}`, { marginTop: '6px', fontWeight: '600', color: 'var(--color-ok-ink)' })] : []),
    );
    if (box.matches(':popover-open')) box.hidePopover();
    box.showPopover();
  }, caption);
}

/** The ffmpeg binary of `@ffmpeg-installer/<platform>`, made executable when the install left it without the bit (scripts not run). */
export function ffmpegPath(): string {
  try {
    fs.accessSync(ffmpeg.path, fs.constants.X_OK);
  } catch {
    fs.chmodSync(ffmpeg.path, 0o755);
  }
  return ffmpeg.path;
}

type Frame = { file: string; at: number };

/**
 * The film: a screenshot of whichever page the story is on, every `intervalMs`, each stamped
 * with when it was taken, so the video plays at the pace the story ran (holds included).
 */
export class Film {
  private frames: Frame[] = [];
  private page: Page | null = null;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly intervalMs = 200,
  ) {}

  /** Films `page` from now on. */
  follow(page: Page) {
    this.page = page;
  }

  start() {
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const started = Date.now();
        const page = this.page;
        // A page between two documents has nothing to show: the frame before it stays on screen.
        const shot = await page?.screenshot({ type: 'jpeg', quality: 80, caret: 'initial' }).catch(() => null);
        if (shot) {
          const file = path.join(this.dir, `frame-${String(this.frames.length).padStart(5, '0')}.jpg`);
          fs.writeFileSync(file, shot);
          this.frames.push({ file, at: started });
        }
        await new Promise((r) => setTimeout(r, Math.max(0, this.intervalMs - (Date.now() - started))));
      }
    })();
  }

  async stop() {
    this.running = false;
    await this.loop;
  }

  /**
   * Assembles the frames into an H.264 MP4 (plays in every browser): ffmpeg's concat demuxer
   * gives each frame the time until the next one, then the video is resampled to a steady 10 fps.
   * @returns how many frames and seconds it holds.
   */
  assemble(out: string): { frames: number; seconds: number } {
    if (this.frames.length === 0) throw new Error('no frame was filmed');
    const list = path.join(this.dir, 'frames.txt');
    const lines = this.frames.flatMap((f, i) => {
      const next = this.frames[i + 1]?.at ?? f.at + 2_000;
      return [`file '${path.basename(f.file)}'`, `duration ${((next - f.at) / 1000).toFixed(3)}`];
    });
    // The concat demuxer ignores the last entry's duration unless the file is named once more.
    lines.push(`file '${path.basename(this.frames.at(-1)!.file)}'`);
    fs.writeFileSync(list, lines.join('\n') + '\n');
    execFileSync(
      ffmpegPath(),
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list],
        ...[
          '-vf',
          'fps=10,scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '30',
          '-movflags',
          '+faststart',
        ],
        out,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const seconds = (this.frames.at(-1)!.at + 2_000 - this.frames[0]!.at) / 1000;
    return { frames: this.frames.length, seconds };
  }
}

export type Told = { step: number; slug: string; who: string; action: string; outcome: string; screenshot: string };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const dataUri = (file: string, type: string) => `data:${type};base64,${fs.readFileSync(file).toString('base64')}`;

/**
 * `index.html`: the story step by step — who, what, what came of it, the screenshot — and the
 * video on top when there is one. Self-contained: the pictures and the video are inlined as data
 * URIs, the styles are its own, so the one file can be mailed or opened from anywhere.
 */
export function writeIndex(dir: string, steps: readonly Told[], video: string | null, meta: { seconds: number; when: Date }): string {
  const items = steps
    .map(
      (s) => `<li id="${escapeHtml(s.slug)}">
  <h2>Step ${s.step}. ${escapeHtml(s.who)}</h2>
  <p>${escapeHtml(s.action)}</p>
  <p class="outcome">→ ${escapeHtml(s.outcome)}</p>
  <img src="${dataUri(path.join(dir, s.screenshot), 'image/png')}" alt="Step ${s.step}: ${escapeHtml(s.outcome)}" width="1280" height="800" loading="lazy">
</li>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GPU reservations — the demo</title>
<style>
  :root { color-scheme: light dark; --ink: light-dark(#0f172a, #f1f5f9); --ink-3: light-dark(#475569, #cbd5e1); --surface: light-dark(#ffffff, #0f172a); --line: light-dark(#e2e8f0, #334155); --ok: light-dark(#064e3b, #a7f3d0); }
  body { margin: 0 auto; max-width: 1320px; padding: 24px; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--surface); }
  h1 { margin: 0 0 4px; } .meta { color: var(--ink-3); margin: 0 0 24px; }
  ol { list-style: none; padding: 0; } li { margin: 0 0 40px; padding-top: 16px; border-top: 1px solid var(--line); }
  h2 { font-size: 18px; margin: 0 0 4px; } p { margin: 0 0 4px; } .outcome { font-weight: 600; color: var(--ok); }
  img, video { display: block; width: 100%; height: auto; margin-top: 12px; border: 1px solid var(--line); border-radius: 8px; }
</style>
</head>
<body>
<h1>GPU reservations — the demo</h1>
<p class="meta">Played by <code>npm run demo</code> on a freshly seeded fleet, ${escapeHtml(meta.when.toISOString())}, in ${meta.seconds.toFixed(0)} s: an owner reserves, the managing org releases, spot buyers fill the units, the manager takes 4 GPUs back with the plan of fewest evictions and schedules another reclaim, the tenants are told, and the operator changes a topology and re-affirms.</p>
${video ? `<video controls muted playsinline preload="metadata" src="${dataUri(video, 'video/mp4')}" aria-label="The whole story, filmed"></video>` : ''}
<ol>
${items}
</ol>
</body>
</html>
`;
  const file = path.join(dir, 'index.html');
  fs.writeFileSync(file, html);
  return file;
}
