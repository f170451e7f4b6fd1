import { consoleExportRoute } from '@/server/exports/console-route';

/** The console's download of the audit export (docs/product.md §5.8). */
export const GET = consoleExportRoute('/v1/audit', '/audit');
