/** The operator's view of locked sign-ins (docs/product.md §9.3 "Unlock"): console only, one declaration each (server/operation.ts). */
import { NoInput, operation, type OperationGroup } from '../operation';
import { listLockedSignIns } from './list-locked';
import { UnlockSignInInput } from './schemas';
import { unlockSignIn } from './unlock';

export const signInOperations = {
  locked: operation({
    verb: listLockedSignIns,
    input: NoInput,
    kind: 'query',
    scope: 'members:manage',
    console: 'sign-ins.page',
    rest: { none: 'console only (docs/product.md §9.3): an operator unlocks a person, having read who is locked and why' },
  }),
  unlock: operation({
    verb: unlockSignIn,
    input: UnlockSignInInput,
    kind: 'mutation',
    scope: 'members:manage',
    console: 'sign-ins.unlock',
    rest: { none: 'console only (docs/product.md §9.3): an unlock is a person’s decision, never a script’s' },
  }),
} satisfies OperationGroup;
