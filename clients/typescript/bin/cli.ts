#!/usr/bin/env -S npx tsx
/**
 * `gpu-reservations` — the CLI on the SDK (docs/product.md §5.9). `npm run cli -- nodes list`,
 * or the package's `bin` entry.
 */
import { buildProgram, readErrorExitCode } from '../src/cli/program';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = readErrorExitCode(error, process.argv.includes('--json'));
}
