import { getDb } from '@/db/client';
import { sql } from 'drizzle-orm';
import { authenticateApiKey } from '../api-keys/authenticate';
import { DomainError } from '../errors';
import { jsonResponse, problemResponse } from '../http/problem';

/**
 * The benchmark's floor (docs/performance.md): what one request costs when it authenticates the
 * way /v1 does (server/api-keys/authenticate.ts) and runs one transaction of one
 * `SELECT … FOR UPDATE` and one `UPDATE` — the least a locked write such as a reclaim can cost.
 * The benchmark divides every scenario's throughput by this one's (issue 10).
 *
 * It exists only while the benchmark runs: without `BENCH_FLOOR=1` in the environment it is an
 * unknown path (404). It is no API route: it is absent from the route table, the OpenAPI
 * document and the authorization matrix (docs/product.md §5 lists every route there is).
 * `POST /bench/floor?nodeId=…` locks that node row and writes it back unchanged (a new row
 * version, WAL and a commit flush, as a real write costs); 404 when the node does not exist.
 */
export async function answerFloorRequest(req: Request): Promise<Response> {
  if (process.env.BENCH_FLOOR !== '1') return problemResponse(new DomainError('not_found', 'No route exists at this path.'));
  const db = getDb();
  const auth = await authenticateApiKey(db, req.headers.get('authorization'));
  if (!auth) return problemResponse(new DomainError('unauthenticated', 'Send a valid API key as "Authorization: Bearer <key>".'));
  const nodeId = new URL(req.url).searchParams.get('nodeId') ?? '';
  const found = await db.transaction(async (tx) => {
    const rows = await tx.execute(sql`select id from nodes where id = ${nodeId} for update`);
    if (rows.length === 0) return false;
    await tx.execute(sql`update nodes set updated_at = updated_at where id = ${nodeId}`);
    return true;
  });
  if (!found) return problemResponse(new DomainError('not_found', `No node ${nodeId} exists.`));
  return jsonResponse(200, JSON.stringify({ nodeId }));
}
