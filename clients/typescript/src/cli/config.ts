/**
 * Where the CLI finds the API and its key (docs/product.md §5.9): flags, then the environment
 * (`GPU_RESERVATIONS_API_KEY`, `GPU_RESERVATIONS_BASE_URL`), then a config file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type CliConfig = { baseUrl: string; apiKey: string | undefined };

/** The config file (docs/product.md §5.9): `$GPU_RESERVATIONS_CONFIG`, else `$XDG_CONFIG_HOME/gpu-reservations/config.json` (XDG's default `~/.config`). */
export function findConfigFile(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.GPU_RESERVATIONS_CONFIG ?? path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'gpu-reservations', 'config.json');
}

/**
 * The base URL and key to use (docs/product.md §5.9): a flag wins over the environment, which
 * wins over the config file `{ "baseUrl": …, "apiKey": … }`; the base URL defaults to
 * `http://localhost:3000`, `npm run dev`'s.
 * @throws Error when the config file exists but is not that JSON.
 */
export function readCliConfig(flags: { baseUrl?: string }, env: Readonly<Record<string, string | undefined>> = process.env): CliConfig {
  const file = findConfigFile(env);
  let stored: { baseUrl?: unknown; apiKey?: unknown } = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
    } catch {
      throw new Error(`${file} is not JSON of the form { "baseUrl": "…", "apiKey": "…" }`);
    }
  }
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    baseUrl: flags.baseUrl ?? text(env.GPU_RESERVATIONS_BASE_URL) ?? text(stored.baseUrl) ?? 'http://localhost:3000',
    apiKey: text(env.GPU_RESERVATIONS_API_KEY) ?? text(stored.apiKey),
  };
}
