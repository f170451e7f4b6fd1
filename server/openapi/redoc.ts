/**
 * The API reference's rendering (docs/product.md §5 "The reference"): Redoc, a maintained
 * renderer from npm, renders the document on the server, in a child process
 * (./redoc-render.mjs: react-dom/server is not for Server Components), once per process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { redocOptions, withHistory } from './redoc-options';
import { getServedDocument, readReferenceHistory } from './reference';

/** Redoc's markup of the document, and the CSS rules it uses. */
export type RenderedReference = { html: string; css: string };

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
        resolve(JSON.parse(Buffer.concat(out).toString()) as RenderedReference);
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
 * @returns Redoc's HTML and the CSS rules it uses.
 * @throws Error when the rendering process fails.
 */
export function renderReference(): Promise<RenderedReference> {
  rendered ??= run(withHistory(getServedDocument(), readReferenceHistory()), redocOptions).catch((e: unknown) => {
    rendered = undefined;
    throw e;
  });
  return rendered;
}
