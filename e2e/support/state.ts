import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What the e2e server hands the tests: its database and the demo keys. */
export type E2eState = { databaseUrl: string; keys: Record<string, string>; baseURL: string };

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const stateFile = () => process.env.E2E_STATE_FILE ?? path.join(os.tmpdir(), `gpu-e2e-state-${E2E_PORT}.json`);

export function readState(): E2eState {
  return JSON.parse(fs.readFileSync(stateFile(), 'utf8')) as E2eState;
}
