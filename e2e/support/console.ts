import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  apiPath,
  createContractClient,
  endpoints,
  type BodyOf,
  type Endpoint,
  type ResultOf,
} from '@flashbulb/shared';
import { totpForStep, totpStep } from '../totp.ts';
import { decodeQrPng, otpauthSecret } from './qr.ts';

/**
 * Sign in through the sign-in page as a user who has no two-factor yet: scan the set-up QR code
 * as a phone would and answer with the authenticator's code. Resolves once the console shows the
 * user's e-mail.
 */
export const signInWithMfaSetup = async (
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ secret: string }> => {
  await page.goto(baseUrl);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');

  const setup = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  const qr = setup.getByTestId('mfa-qr');
  await qr.waitFor();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  const secret = otpauthSecret(decodeQrPng(await qr.screenshot()));
  await setup.getByLabel('Code').fill(totpForStep(secret, totpStep()));
  await setup.getByLabel('Code').press('Enter');
  // The recovery codes are shown once; sign-in goes on when the user says they are saved.
  await setup.getByRole('button', { name: 'I have saved them — continue' }).click();
  await expect.poll(() => page.getByTestId('header-email').textContent()).toBe(email);
  return { secret };
};

/**
 * An access token for API set-up calls, from the signed-in page's refresh cookie (the page keeps
 * its session: the rotated cookie lands in the same browser).
 */
export const accessTokenOf = async (page: Page): Promise<string> => {
  const reply = await page.evaluate(async (path) => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'same-origin',
    });
    return (await response.json()) as {
      result?: { authentication_result?: { access_token?: string } };
    };
  }, apiPath(endpoints.refresh));
  const token = reply.result?.authentication_result?.access_token;
  if (!token) throw new Error(`no access token from refresh: ${JSON.stringify(reply)}`);
  return token;
};

/**
 * Signs `user` in from inside the page, as the sign-in page does, so the browser holds the refresh
 * cookie: the console then opens signed in (a user without a second factor).
 */
export const signInInBrowser = async (
  page: Page,
  user: { readonly email: string; readonly password: string },
): Promise<void> => {
  await page.evaluate(
    async ({ path, username, password }) => {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (!response.ok) throw new Error(`sign-in ${response.status}`);
      // Read to the end: a body still arriving when the journey navigates is a cancelled call.
      await response.text();
    },
    { path: apiPath(endpoints.signIn), username: user.email, password: user.password },
  );
};

/** Typed calls of the shared contract against a running server, as the owner with `token`. */
export const ownerClient = (baseUrl: string, token: string) => {
  const client = createContractClient({ baseUrl });
  return <E extends Endpoint>(endpoint: E, body: BodyOf<E>): Promise<ResultOf<E>> =>
    client.call(endpoint, body, { authorization: `Bearer ${token}` });
};

export type OwnerCall = ReturnType<typeof ownerClient>;

/** An organisation, an event in it and a robot assigned to that event, through the API. */
export const createEventWithRobot = async (
  call: OwnerCall,
  names: { organisation: string; event: string },
) => {
  const organisation = await call(endpoints.createOrganisation, { name: names.organisation });
  const event = await call(endpoints.createEvent, {
    organisation_id: organisation.id,
    full_name: names.event,
    email_from_address: 'photos@events.example',
    opts: { description: names.event },
  });
  const robot = await call(endpoints.createRobot, {
    organisation_id: organisation.id,
    name: 'Booth 1',
  });
  await call(endpoints.updateEvent, {
    id: event.id,
    robot_id_array: [robot.id],
    event_last_updated_date: event.updated_date,
  });
  return { organisation, event, robot };
};
