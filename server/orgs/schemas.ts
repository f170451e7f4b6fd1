import { z } from 'zod';

/** Query of `GET /v1/orgs`: a name or id fragment (the org picker). */
export const SearchOrgsQuery = z
  .object({
    q: z.string().max(100, 'must be at most 100 characters').optional().meta({ description: 'Part of an org name or id, case-insensitive; absent lists the first orgs by name.' }),
  })
  .strict();
export type SearchOrgsQuery = z.infer<typeof SearchOrgsQuery>;
