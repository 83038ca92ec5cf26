import type { Page } from 'playwright-core';

export interface Login {
  email: string;
  password: string;
}

/** Fills the sign-in form the page shows and presses Sign in (waits for nothing: the caller knows what comes). */
export async function submitSignIn(page: Page, login: Login): Promise<void> {
  await page.getByLabel('E-mail').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens /login, signs in and waits for the view the account lands on (an administrator's: /publishers). */
export async function signInAt(
  page: Page,
  origin: string,
  login: Login,
  landing = '/publishers',
): Promise<void> {
  await page.goto(`${origin}/login`);
  await submitSignIn(page, login);
  await page.waitForURL(`${origin}${landing}`);
}
