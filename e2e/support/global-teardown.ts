import fs from 'node:fs';
import { stateFile } from './state';

/** The server may be killed before it can remove its state file; remove it here too. */
export default function teardown() {
  fs.rmSync(stateFile(), { force: true });
}
