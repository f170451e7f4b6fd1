/** Finding orgs (docs/product.md §5 `GET /v1/orgs`, the org picker): one declaration (server/operation.ts). */
import { OrgSummaryList } from '../openapi/schemas';
import { operation, type OperationGroup } from '../operation';
import { SearchOrgsQuery } from './schemas';
import { searchOrgs } from './search';

export const orgOperations = {
  search: operation({
    verb: searchOrgs,
    input: SearchOrgsQuery,
    kind: 'query',
    scope: 'read',
    console: 'org-picker',
    rest: {
      method: 'GET',
      path: '/v1/orgs',
      operationId: 'searchOrgs',
      tag: 'Orgs',
      summary: 'Search orgs by name (the org picker)',
      description:
        'Ids and names of the orgs whose name or id contains `q`, at most 20, by name. For those who may create reservations: the platform operator and node owners (else 403).',
      response: OrgSummaryList,
      responseDescription: 'Matching orgs.',
      errors: ['forbidden'],
    },
  }),
} satisfies OperationGroup;
