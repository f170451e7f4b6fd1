import { z } from 'zod';
import { Id } from '../ids';

/** `signIns.unlock`: the user whose sign-in locks to lift. */
export const UnlockSignInInput = z.object({ userId: Id }).strict();
export type UnlockSignInInput = z.infer<typeof UnlockSignInInput>;
