/**
 * Lints the OpenAPI document the API serves with Redocly CLI (redocly.yaml: recommended-strict,
 * every rule an error) and fails on any problem, warnings included (docs/product.md §5: the
 * document is linted in `npm run lint`). The document is built from the route table as
 * `GET /v1/openapi.json` builds it, written to a temporary file, and linted there.
 *
 * Usage: `npx tsx server/openapi/lint.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restRoutes } from '../rest/routes';
import { buildOpenApiDocument } from './document';

type LintReport = { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'gpu-openapi-'));
const file = path.join(dir, 'openapi.json');
// Redocly CLI would phone home and look for updates: neither reaches anything here, nor should it.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
try {
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(restRoutes), null, 1));
  let out: string;
  try {
    out = execFileSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', file, '--config', path.join(root, 'redocly.yaml'), '--format=json'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (e) {
    // Redocly exits 1 when it finds errors; its report is still on stdout.
    out = (e as { stdout?: string }).stdout ?? '';
  }
  const report = JSON.parse(out) as LintReport;
  const count = report.totals.errors + report.totals.warnings;
  for (const p of report.problems) console.error(`${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`);
  if (count > 0) {
    console.error(`The OpenAPI document has ${count} lint problem(s) (redocly.yaml).`);
    process.exitCode = 1;
  } else console.log('OpenAPI document: no lint problems (Redocly, recommended-strict).');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
