/** The acting org's API keys (docs/product.md §5, §9 m, §9.3): one declaration each (server/operation.ts). REST's `{id}` fills `apiKeyId`. */
import { ApiKey, ApiKeyPage, CreatedApiKey } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { createApiKey } from './create';
import { listApiKeys } from './list';
import { revokeApiKey } from './revoke';
import { CreateApiKeyInput, ListApiKeysInput, RevokeApiKeyInput } from './schemas';

export const apiKeyOperations = {
  list: operation({
    verb: listApiKeys,
    input: ListApiKeysInput,
    kind: 'query',
    scope: 'keys:manage',
    console: 'api-keys.page',
    rest: {
      method: 'GET',
      path: '/v1/api-keys',
      operationId: 'listApiKeys',
      tag: 'API keys',
      summary: "List the acting org's API keys",
      description:
        'Newest first, revoked ones included (with revokedAt); never a secret; each with who created it (`createdBy`) where that was recorded. Every org sees only its own keys, the platform operator included.',
      response: ApiKeyPage,
      responseDescription: 'A page of API keys.',
      errors: [],
    },
  }),
  create: operation({
    verb: createApiKey,
    input: CreateApiKeyInput,
    kind: 'mutation',
    scope: 'keys:manage',
    console: 'api-keys.create',
    rest: {
      method: 'POST',
      path: '/v1/api-keys',
      operationId: 'createApiKey',
      tag: 'API keys',
      summary: 'Create an API key',
      description:
        'A new key of the acting org (audited as api_key.create), recording who created it (`createdBy`). The answer holds its secret, shown this once: only a hash is stored. No Idempotency-Key: an answer holding the secret is never stored, so it could not be replayed . An org has at most 100 active keys (409 limit_reached, with `limit`; revoke one first) and creates at most 20 a minute (429 rate_limited with Retry-After).',
      status: 201,
      response: CreatedApiKey,
      responseDescription: 'The new key, with its secret.',
      errors: ['limit_reached'],
      idempotency: 'refused',
    },
  }),
  revoke: operation({
    verb: revokeApiKey,
    input: RevokeApiKeyInput,
    kind: 'mutation',
    scope: 'keys:manage',
    console: 'api-keys.revoke',
    rest: {
      method: 'POST',
      path: '/v1/api-keys/{id}/revoke',
      params: { id: 'apiKeyId' },
      operationId: 'revokeApiKey',
      tag: 'API keys',
      summary: 'Revoke an API key',
      description:
        "One of the acting org's keys (another org's is 404); audited as api_key.revoke. From then on the key is refused (401) on every request. Revoking a revoked key changes nothing.",
      response: ApiKey,
      responseDescription: 'The revoked key.',
      errors: ['not_found'],
    },
  }),
} satisfies OperationGroup;
