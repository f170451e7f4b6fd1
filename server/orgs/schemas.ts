import { z } from 'zod';
import { freeText } from '../ids';

/** Query of `GET /v1/orgs`: a name or id fragment (the org picker). */
export const SearchOrgsQuery = z
  .object({
    // freeText: a NUL reached PostgreSQL's ILIKE and failed the query (500); it is 400 now.
    q: freeText(100).optional().meta({ description: 'Part of an org name or id, case-insensitive; absent lists the first orgs by name.' }),
  })
  .strict();
export type SearchOrgsQuery = z.infer<typeof SearchOrgsQuery>;
