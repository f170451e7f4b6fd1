import { DomainError } from '../errors';

/**
 * The DomainError a call fails with, for tests that assert a refusal's code and extras.
 * @throws Error when the call succeeds; rethrows any other error.
 */
export async function failure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}
