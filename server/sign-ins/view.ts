/**
 * A lock on a known account's sign-in (docs/product.md §9.3): `account` refuses every browser the
 * account does not know; `device` is one of its known browsers that failed too often itself.
 */
export type LockedSignInView = {
  userId: string;
  email: string;
  name: string;
  scope: 'account' | 'device';
  failures: number;
  lockedUntil: string;
};

/** What an unlock lifted: the scopes that were locked (empty when nothing was, and nothing changed). */
export type UnlockedSignInView = { userId: string; email: string; unlocked: ('account' | 'device')[] };
