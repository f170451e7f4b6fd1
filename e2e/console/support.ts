import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo-password';

/** Signs in through the form and waits for the console header. */
export async function signIn(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('acting-org')).toBeVisible();
}

export const unit = (page: Page, unitId: string) => page.locator(`[data-unit-id="${unitId}"]`).first();
