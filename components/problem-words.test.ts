import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { problemOf } from './problem';
import { errorMessage, fetchedMessage, fieldErrors, fieldLabel, fieldSentences } from './problem-words';

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
const asTrpcError = (p: unknown) => new TRPCClientError('bad', { result: { error: { code: -32600, message: 'bad', data: { problem: p } } } } as never);
const trpcError = asTrpcError(problem);

describe('problem helpers', () => {
  it('read the problem a tRPC error carries, and say it by the labels of its fields', () => {
    expect(problemOf(trpcError)?.code).toBe('invalid_request');
    expect(errorMessage(trpcError)).toBe('Reason must be at most 1000 characters. Units duplicate id "gpu-1".');
    expect(errorMessage(new Error('plain'))).toBe('Plain.');
  });

  it('find a field’s messages whichever transport named it, as sentences', () => {
    expect(fieldErrors(trpcError, 'reason')).toEqual(['Must be at most 1000 characters.']);
    expect(fieldErrors(trpcError, 'unitIds')).toEqual(['Duplicate id "gpu-1".']);
    expect(fieldErrors(trpcError, 'endsAt')).toEqual([]);
    expect(fieldSentences(trpcError, 'reason')).toEqual(['Reason must be at most 1000 characters.']);
  });

  it('never show schema paths, field names as the schema spells them, codes in parentheses or transport words (issue 20.2)', () => {
    expect(fieldLabel('input.units.2.memoryGiB')).toBe('Memory (GiB) of unit 3');
    expect(fieldLabel('body.endsAt')).toBe('Ends at');
    const period = {
      ...problem,
      detail: 'endsAt must be after the reservation’s startsAt.',
      errors: [{ path: 'body.endsAt', message: 'must be after startsAt' }],
    };
    expect(errorMessage(asTrpcError(period))).toBe('Ends at must be after the start.');
    expect(fieldErrors(asTrpcError(period), 'endsAt')).toEqual(['Must be after the start.']);
    const since = [{ path: 'input.since', message: 'must be an ISO 8601 UTC timestamp such as 2026-12-01T00:00:00.000Z' }];
    expect(fetchedMessage({ error: 'The request is invalid: input.since …', errors: since }, 'UTC')).toBe(
      'Since (UTC) must be a date and time, such as 2026-12-01 00:00.',
    );
    // A time field is named as its form labels it, with the zone the form reads it in (issue 23).
    expect(fetchedMessage({ errors: since }, 'Europe/Berlin')).toBe('Since (Europe/Berlin) must be a date and time, such as 2026-12-01 00:00.');
    expect(errorMessage(asTrpcError(period), 'Europe/Berlin')).toBe('Ends at (Europe/Berlin) must be after the start.');
    expect(fieldLabel('input.reason', 'UTC')).toBe('Reason');
    const transport = {
      ...problem,
      errors: [{ path: 'input', message: 'The input holds the superjson type "number"; procedures here take plain JSON values only.' }],
    };
    expect(errorMessage(asTrpcError(transport))).not.toMatch(/superjson/);
    const conflict = { ...problem, code: 'unit_missing' as const, errors: undefined, detail: 'It holds units gone from the node (409 unit_missing).' };
    expect(errorMessage(asTrpcError(conflict))).toBe('It holds units gone from the node.');
    const status = [{ path: 'input.status', message: 'Invalid option: expected one of "running"|"terminated"' }];
    expect(fetchedMessage({ errors: status })).toBe('Status must be one of "running", "terminated".');
    expect(fetchedMessage({ errors: [{ path: 'input.cursor', message: 'is malformed' }] })).toBe(
      'The page link is invalid (it may be out of date): go back to the first page.',
    );
  });

  it('say the scheduled reclaims’ problems from their extra fields, never their codes or timestamps (issue 22)', () => {
    const base = { type: 't', title: 'x', status: 409, errors: undefined };
    const scheduled = {
      ...base,
      code: 'already_scheduled' as const,
      detail: 'Units gpu-2, gpu-3 are already in … (409 already_scheduled)',
      unitIds: ['gpu-2', 'gpu-3'],
    };
    expect(errorMessage(asTrpcError(scheduled))).toBe(
      'gpu-2 and gpu-3 are already in a pending scheduled reclaim: reschedule or cancel that one on the reservation’s page, or leave them out.',
    );
    const ran = { ...base, code: 'schedule_not_pending' as const, detail: 'Scheduled reclaim "rs_1" is done; …', scheduleStatus: 'done' as const };
    expect(errorMessage(asTrpcError(ran))).toBe('This scheduled reclaim has already run, so it can no longer be changed or cancelled.');
    const late = {
      ...base,
      status: 422,
      code: 'invalid_schedule_time' as const,
      detail: 'at must be in the future (it is now 2026-12-03T07:00:00.000Z); to reclaim now, reclaim.',
      errors: [{ path: 'body.at', message: 'must be in the future' }],
    };
    expect(errorMessage(asTrpcError(late))).toBe('Reclaim at must be in the future.');
    expect(fieldErrors(asTrpcError(late), 'at')).toEqual(['Must be in the future.']);
    const strays = { ...base, status: 422, code: 'unit_not_in_reservation' as const, detail: '… reclaim only its reservedUnitIds.', unitIds: ['gpu-5'] };
    expect(errorMessage(asTrpcError(strays))).toBe('gpu-5 is not in this reservation (any more): pick only units it holds, and try again.');
  });
});
