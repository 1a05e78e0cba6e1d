import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('from-address verification page', () => {
  it('sends the token from the link once and shows the verified address', async () => {
    const api = installFakeApi({
      '/event/from-address/verify': { ok: { email_from_address: 'photos@gala.example' } },
    });
    renderApp('/verify-from-address?token=abcdefghijklmnop');
    expect(await screen.findByText(/photos@gala\.example is verified/)).toBeTruthy();
    const calls = api.calls.filter((c) => c.path === '/event/from-address/verify');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ token: 'abcdefghijklmnop' });
  });

  it('shows the catalogue text when the link is not valid', async () => {
    installFakeApi({ '/event/from-address/verify': { nok: 'verification_link_invalid' } });
    renderApp('/verify-from-address?token=used-already-token');
    expect(
      await screen.findByText('This verification link is not valid or has expired'),
    ).toBeTruthy();
  });
});
