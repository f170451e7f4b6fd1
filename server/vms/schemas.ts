import { vmTiers } from '@/db/schema';
import { z } from 'zod';
import { Id, distinctIds } from '../ids';
import { LimitNumber } from '../pagination';
import { Timestamp } from '../timestamp';

/** Body of `POST /v1/vms` (docs/product.md §5.3). */
export const PlaceVmInput = z
  .object({
    nodeId: Id,
    unitIds: distinctIds(64).meta({ description: '1–64 distinct unit ids of the node.' }),
    tier: z.enum(vmTiers).meta({ description: '`reserved` takes `reservationId`; `spot` and `on-demand` take none.' }),
    reservationId: Id.optional().meta({
      description: 'The reservation whose units a `reserved` VM runs on: required when `tier` is `reserved`, refused (400) for any other tier.',
    }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.tier === 'reserved' && !v.reservationId) ctx.addIssue({ code: 'custom', path: ['reservationId'], message: 'is required for tier "reserved"' });
    if (v.tier !== 'reserved' && v.reservationId)
      ctx.addIssue({ code: 'custom', path: ['reservationId'], message: `is only accepted for tier "reserved", not "${v.tier}"` });
  })
  // The refinement above, as the document states it: `reservationId` exactly when `tier` is `reserved`.
  .meta({
    if: { properties: { tier: { const: 'reserved' } }, required: ['tier'] },
    then: { properties: { reservationId: true }, required: ['reservationId'] },
    else: { not: { properties: { reservationId: true }, required: ['reservationId'] } },
  });
export type PlaceVmInput = z.infer<typeof PlaceVmInput>;

export const ListVmsInput = z
  .object({
    nodeId: Id.optional(),
    status: z.enum(['running', 'terminated']).optional(),
    tier: z.enum(vmTiers).optional(),
    since: Timestamp.optional().meta({ description: 'Only VMs whose run [startedAt, terminatedAt) ends after this (a running VM has not ended).' }),
    until: Timestamp.optional().meta({ description: 'Only VMs started before this (exclusive).' }),
    limit: LimitNumber.optional(),
    cursor: z.string().optional(),
  })
  .strict();
export type ListVmsInput = z.infer<typeof ListVmsInput>;

export const ListNodeVmsInput = z.object({ nodeId: Id, status: z.enum(['running', 'terminated']).optional() }).strict();
export type ListNodeVmsInput = z.infer<typeof ListNodeVmsInput>;

export const GetVmInput = z.object({ vmId: Id }).strict();
export type GetVmInput = z.infer<typeof GetVmInput>;
