#!/usr/bin/env node
// The package's `bin` (docs/product.md §5.9): the CLI is TypeScript, run by tsx, which is
// registered here from this file's own node_modules so that the command works from any folder.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
