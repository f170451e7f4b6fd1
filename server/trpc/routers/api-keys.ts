import { createApiKey } from '../../api-keys/create';
import { listApiKeys } from '../../api-keys/list';
import { revokeApiKey } from '../../api-keys/revoke';
import { CreateApiKeyInput, ListApiKeysInput, RevokeApiKeyInput } from '../../api-keys/schemas';
import { createTRPCRouter, protectedProcedure } from '../init';

export const apiKeysRouter = createTRPCRouter({
  list: protectedProcedure.input(ListApiKeysInput).query(({ ctx, input }) => listApiKeys({ ctx: ctx.verbCtx, input })),
  create: protectedProcedure.input(CreateApiKeyInput).mutation(({ ctx, input }) => createApiKey({ ctx: ctx.verbCtx, input })),
  revoke: protectedProcedure.input(RevokeApiKeyInput).mutation(({ ctx, input }) => revokeApiKey({ ctx: ctx.verbCtx, input })),
});
