import type { Page } from 'playwright-core';
import { totpForStep, totpStep } from '../totp.ts';
import { decodeQrPng, otpauthSecret } from './qr.ts';

/** Type the e-mail and password on the sign-in page and submit. */
export const submitSignIn = async (page: Page, email: string, password: string) => {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
};

/** An authenticator set up from the QR code: its secret and the last step whose code was spent. */
export interface Authenticator {
  readonly secret: string;
  lastStep: number;
}

/** First sign-in: scan the set-up QR code as a phone would and answer with the app's code. */
export const signInSettingUpTotp = async (
  page: Page,
  email: string,
  password: string,
): Promise<Authenticator> => {
  await submitSignIn(page, email, password);
  const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  const qr = setup.getByTestId('mfa-qr');
  await qr.waitFor();
  const secret = otpauthSecret(decodeQrPng(await qr.screenshot()));
  const step = totpStep();
  await setup.getByLabel('Code').fill(totpForStep(secret, step));
  await setup.getByLabel('Code').press('Enter');
  // The recovery codes are shown once; sign-in goes on when the user says they are saved.
  await setup.getByRole('button', { name: 'I have saved them — continue' }).click();
  await page.getByTestId('header-email').waitFor();
  return { secret, lastStep: step };
};

/**
 * A later sign-in with the code modal. Each code is accepted once, so the step after the last
 * spent one is used when the clock has not moved on (the server accepts ±1 step).
 */
export const signInWithTotp = async (
  page: Page,
  email: string,
  password: string,
  authenticator: Authenticator,
) => {
  await submitSignIn(page, email, password);
  const modal = page.getByRole('dialog', { name: 'Two-factor authentication' });
  await modal.getByLabel('Code').waitFor();
  const step = Math.max(totpStep(), authenticator.lastStep + 1);
  authenticator.lastStep = step;
  await modal.getByLabel('Code').fill(totpForStep(authenticator.secret, step));
  await modal.getByLabel('Code').press('Enter');
  await page.getByTestId('header-email').waitFor();
};
