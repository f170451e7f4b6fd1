import { apiKeyScopes } from '@/db/schema';
import { z } from 'zod';
import { Id, freeText } from '../ids';
import { LimitNumber } from '../pagination';

/** Body of `POST /v1/api-keys` (docs/product.md §5): a name for people to tell keys apart. */
export const CreateApiKeyInput = z
  .object({
    name: freeText(100, { nonBlank: true }).meta({
      description: 'What the key is for, e.g. "ci-deploy"; 1–100 characters. Not unique: keys are told apart by id and prefix.',
    }),
    scopes: z
      .array(z.enum(apiKeyScopes))
      .min(1, 'name at least one scope')
      .refine((a) => new Set(a).size === a.length, 'must not name a scope twice')
      .optional()
      .meta({
        uniqueItems: true,
        description:
          "What the key may call, fixed for its life: `read` every GET but key management; `reservations:write` create, edit, cancel, release, reclaim (dry run and plan included), scheduled reclaims, re-affirm and, on the platform's keys, nodes and topology; `vms:write` place and terminate VMs (and mark notifications read); `keys:manage` API keys and webhooks. At most the scopes of whoever creates it (403 `insufficient_scope`). Omitted: all the creator holds.",
      }),
  })
  .strict();
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

export const ListApiKeysInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListApiKeysInput = z.infer<typeof ListApiKeysInput>;

export const RevokeApiKeyInput = z.object({ apiKeyId: Id }).strict();
export type RevokeApiKeyInput = z.infer<typeof RevokeApiKeyInput>;
