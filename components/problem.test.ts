import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { errorMessage, fieldErrors, problemOf } from './problem';

const problem = {
  type: 't',
  title: 'Invalid request',
  status: 400,
  detail: 'The request is invalid: input.reason must be at most 1000 characters.',
  code: 'invalid_request' as const,
  errors: [
    { path: 'input.reason', message: 'must be at most 1000 characters' },
    { path: 'input.unitIds.2', message: 'duplicate id "gpu-1"' },
  ],
};
const trpcError = new TRPCClientError('bad', { result: { error: { code: -32600, message: 'bad', data: { problem } } } } as never);

describe('problem helpers', () => {
  it('read the problem a tRPC error carries', () => {
    expect(problemOf(trpcError)?.code).toBe('invalid_request');
    expect(errorMessage(trpcError)).toBe(problem.detail);
    expect(errorMessage(new Error('plain'))).toBe('plain');
  });

  it('find a field’s messages whichever transport named it', () => {
    expect(fieldErrors(trpcError, 'reason')).toEqual(['must be at most 1000 characters']);
    expect(fieldErrors(trpcError, 'unitIds')).toEqual(['duplicate id "gpu-1"']);
    expect(fieldErrors(trpcError, 'endsAt')).toEqual([]);
  });
});
