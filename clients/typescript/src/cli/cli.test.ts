import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { findConfigFile, readCliConfig } from './config';
import { exitCodes, readExitCode } from './exit-codes';
import { buildProgram } from './program';

// The CLI's contract besides the server (docs/product.md §5.9): where the key comes from, which
// exit code a problem class gets, and that --help states them.
test('the key: the environment wins over the config file; the base URL: the flag, the environment, the file, the default', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-cli-'));
  try {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ baseUrl: 'http://file.test', apiKey: 'from-file' }));
    expect(readCliConfig({}, { GPU_RESERVATIONS_CONFIG: file })).toEqual({ baseUrl: 'http://file.test', apiKey: 'from-file' });
    expect(readCliConfig({}, { GPU_RESERVATIONS_CONFIG: file, GPU_RESERVATIONS_API_KEY: 'env', GPU_RESERVATIONS_BASE_URL: 'http://env.test' })).toEqual({
      baseUrl: 'http://env.test',
      apiKey: 'env',
    });
    expect(readCliConfig({ baseUrl: 'http://flag.test' }, { GPU_RESERVATIONS_CONFIG: file }).baseUrl).toBe('http://flag.test');
    expect(readCliConfig({}, { GPU_RESERVATIONS_CONFIG: path.join(dir, 'none.json') })).toEqual({ baseUrl: 'http://localhost:3000', apiKey: undefined });
    fs.writeFileSync(file, 'not json');
    expect(() => readCliConfig({}, { GPU_RESERVATIONS_CONFIG: file })).toThrow('is not JSON');
    expect(findConfigFile({ XDG_CONFIG_HOME: '/x' })).toBe('/x/gpu-reservations/config.json');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an exit code per problem class, stated in --help', () => {
  expect([400, 401, 403, 404, 409, 410, 413, 422, 429, 500, 503].map(readExitCode)).toEqual([2, 3, 3, 4, 5, 4, 2, 2, 6, 1, 6]);
  let help = '';
  buildProgram()
    .configureOutput({ writeOut: (s) => (help += s) })
    .outputHelp();
  for (const code of Object.values(exitCodes)) expect(help).toMatch(new RegExp(`^\\s+${code}\\s+\\S`, 'm'));
  expect(help).toContain('GPU_RESERVATIONS_API_KEY');
});
