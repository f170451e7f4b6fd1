import { z } from 'zod';
import { Id, freeText } from '../ids';
import { LimitNumber } from '../pagination';

/** Body of `POST /v1/api-keys` (docs/product.md §5): a name for people to tell keys apart. */
export const CreateApiKeyInput = z
  .object({
    name: freeText(100, { nonBlank: true }).meta({
      description: 'What the key is for, e.g. "ci-deploy"; 1–100 characters. Not unique: keys are told apart by id and prefix.',
    }),
  })
  .strict();
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInput>;

export const ListApiKeysInput = z.object({ limit: LimitNumber.optional(), cursor: z.string().optional() }).strict();
export type ListApiKeysInput = z.infer<typeof ListApiKeysInput>;

export const RevokeApiKeyInput = z.object({ apiKeyId: Id }).strict();
export type RevokeApiKeyInput = z.infer<typeof RevokeApiKeyInput>;
