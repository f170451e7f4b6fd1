/**
 * The API reference's rendering (docs/product.md §5 "The reference"): Redoc, a maintained
 * renderer from npm, renders the document on the server, in a child process
 * (./redoc-render.mjs: react-dom/server is not for Server Components), once per process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { redocOptions, withHistory } from './redoc-options';
import { getServedDocument, readReferenceHistory } from './reference';

/** Redoc's markup of the document, and the CSS rules it uses with the page's own around them. */
export type RenderedReference = { html: string; css: string };

/**
 * Before Redoc's rules, for the markup in `#redoc-root`: the browser's own defaults rather than
 * the console's reset (Tailwind's preflight, a cascade layer), since Redoc styles its markup over
 * the browser's defaults. Unlayered and of no specificity, so every rule of Redoc's and every
 * inline style still wins — but not the presentation attributes of an SVG's shapes, which count as
 * author rules that come first: reverted, a path lost its `d` (a CSS property in Chromium) and
 * Redoc's icons drew nothing (the phone menu's button was a blank disc). So what is inside an
 * `<svg>` is left as drawn; the `<svg>` itself is reset like the rest (inline, as Redoc lays it out).
 */
const RESET_CSS = ':where(#redoc-root *:not(svg *)) { all: revert; }';

/**
 * After Redoc's rules: its section headings and the response headers' caption are drawn in a fixed
 * rgba(38, 50, 56, 0.5), 2.9:1 on white, under WCAG's 4.5 (docs/product.md §8 R7), which its theme
 * (./redoc-options.ts) cannot change. The id outweighs Redoc's one class.
 */
const CONTRAST_CSS = '#redoc-root :is(h5, caption) { color: #5c6366; }';

let rendered: Promise<RenderedReference> | undefined;

/** Rendering takes about a second of CPU; a stuck child is killed after this. */
const RENDER_TIMEOUT_MS = 120_000;

function run(document: unknown, options: unknown): Promise<RenderedReference> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(process.cwd(), 'server/openapi/redoc-render.mjs')], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: RENDER_TIMEOUT_MS,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`Redoc's rendering exited with ${code}: ${Buffer.concat(err).toString().slice(-2000)}`));
      try {
        const { html, css } = JSON.parse(Buffer.concat(out).toString()) as RenderedReference;
        resolve({ html, css: `${RESET_CSS}\n${css}\n${CONTRAST_CSS}` });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
    child.stdin.end(JSON.stringify({ document, options }));
  });
}

/**
 * Renders the reference with Redoc: the served document with each operation's history
 * (`withHistory`) and Redoc's options, the same the browser hydrates with. Both are code, so the
 * first call's rendering serves every later one; a failed rendering is retried on the next call.
 * @returns Redoc's HTML and the CSS rules it uses, between the page's own (`RESET_CSS`, `CONTRAST_CSS`).
 * @throws Error when the rendering process fails.
 */
export function renderReference(): Promise<RenderedReference> {
  rendered ??= run(withHistory(getServedDocument(), readReferenceHistory()), redocOptions).catch((e: unknown) => {
    rendered = undefined;
    throw e;
  });
  return rendered;
}
