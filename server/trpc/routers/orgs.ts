import { SearchOrgsQuery } from '../../orgs/schemas';
import { searchOrgs } from '../../orgs/search';
import { createTRPCRouter, protectedProcedure } from '../init';

export const orgsRouter = createTRPCRouter({
  search: protectedProcedure.input(SearchOrgsQuery).query(({ ctx, input }) => searchOrgs({ ctx: ctx.verbCtx, input })),
});
