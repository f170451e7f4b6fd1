import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { readState } from '../support/state';

export const DEMO_PASSWORD = 'demo-password';

/**
 * Signs in through the form and waits for the console header.
 * @param next the sign-in page's `next` (where to go afterwards), sent as is.
 */
export async function signIn(page: Page, email: string, next?: string) {
  await page.goto(next === undefined ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('acting-org')).toBeVisible();
}

/**
 * Signs in through Auth.js's own endpoint, as a program could (no form, no server action).
 * @returns the endpoint's answer (a 302), unfollowed.
 */
export async function signInOverHttp(api: APIRequestContext, email: string, callbackUrl = '/') {
  const { csrfToken } = (await (await api.get('/api/auth/csrf')).json()) as { csrfToken: string };
  return api.post('/api/auth/callback/credentials', { form: { csrfToken, email, password: DEMO_PASSWORD, callbackUrl }, maxRedirects: 0 });
}

/** A console tRPC query (superjson input) that needs a signed-in user: 200, or 401 without one. */
export const TRPC_LIST_NODES = `/api/trpc/nodes.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`;

export const unit = (page: Page, unitId: string) => page.locator(`[data-unit-id="${unitId}"]`).first();

/** A REST call as one demo org (its seeded API key), answering the parsed body; fails the test on an unexpected status. */
export async function asOrg<T = Record<string, unknown>>(
  request: APIRequestContext,
  orgId: string,
  method: 'get' | 'post' | 'put' | 'patch',
  path: string,
  data: unknown,
  status = 200,
): Promise<T> {
  const res = await request[method](path, { headers: { authorization: `Bearer ${readState().keys[orgId]}` }, data });
  expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBe(status);
  return (await res.json()) as T;
}

/**
 * Registers a node of `units` H100 units owned by org_acme (as the operator, over the API), with
 * an id no other test uses: a test that changes a node works on its own.
 */
export async function freshNode(request: APIRequestContext, prefix: string, units = 4): Promise<string> {
  const id = `${prefix}-${Date.now().toString(36)}`;
  await asOrg(
    request,
    'org_platform',
    'post',
    '/v1/nodes',
    {
      id,
      name: `E2E ${prefix}`,
      ownerOrgId: 'org_acme',
      units: Array.from({ length: units }, (_, i) => ({ id: `gpu-${i}`, model: 'H100-SXM5', memoryGiB: 80 })),
    },
    201,
  );
  return id;
}

/**
 * A node of its own with a managed reservation and a spot tenant, built over the API as programs
 * would: Acme (the owner) reserves gpu-0…3 for Nimbus, managed by Helix; Helix releases gpu-2 and
 * gpu-3; Orbit runs a spot VM on gpu-2.
 */
export async function managedSpotNode(request: APIRequestContext, prefix: string, units = 4): Promise<{ nodeId: string; reservationId: string; vmId: string }> {
  const nodeId = await freshNode(request, prefix, units);
  const { id: reservationId } = await asOrg<{ id: string }>(
    request,
    'org_acme',
    'post',
    `/v1/nodes/${nodeId}/reservations`,
    { reservedUnitIds: ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3'], allowedOrgIds: ['org_nimbus'], managingOrgIds: ['org_helix'] },
    201,
  );
  await asOrg(request, 'org_helix', 'post', `/v1/nodes/${nodeId}/reservations/${reservationId}/release`, { unitIds: ['gpu-2', 'gpu-3'] });
  const { id: vmId } = await asOrg<{ id: string }>(request, 'org_orbit', 'post', '/v1/vms', { nodeId, unitIds: ['gpu-2'], tier: 'spot' }, 201);
  return { nodeId, reservationId, vmId };
}
