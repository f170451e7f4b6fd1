import { listLockedSignIns } from '../../sign-ins/list-locked';
import { UnlockSignInInput } from '../../sign-ins/schemas';
import { unlockSignIn } from '../../sign-ins/unlock';
import { NoInput, createTRPCRouter, protectedProcedure } from '../init';

/** The operator's view of locked sign-ins (docs/product.md §9.3 "Unlock"); console only, no REST route. */
export const signInsRouter = createTRPCRouter({
  locked: protectedProcedure.input(NoInput).query(({ ctx }) => listLockedSignIns({ ctx: ctx.verbCtx })),
  unlock: protectedProcedure.input(UnlockSignInInput).mutation(({ ctx, input }) => unlockSignIn({ ctx: ctx.verbCtx, input })),
});
