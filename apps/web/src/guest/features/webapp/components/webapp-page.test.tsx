import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { pageTypeFromQuery } from '@flashbulb/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AlbumsRoot from '../../../app/albums-root.tsx';
import { installFakeApi } from '../../../../test/fake-api.ts';

const page = {
  name: 'AB12',
  full_name: 'Summer party',
  description: '',
  logo_full_path: null,
  logo_link: '',
  logo: null,
  background: null,
  banner_top: null,
  banner_bottom: null,
  share_title: '',
  og_title: 'Summer party',
  og_description: '',
  faq_text: '',
  agreement_text: '',
  support_link: '',
  registration_type: 'default',
  redirect_to_webapp: false,
  sms_enabled: false,
  sms_agreement: '',
};

describe('the web-app page’s e-mail field', () => {
  it('offers the event’s e-mail endings (opts.emailEnds) to complete the address', async () => {
    installFakeApi({
      '/webapp/event/retrieve': { ok: { ...page, email_ends: ['party.example', 'gmail.com'] } },
    });
    render(
      <StrictMode>
        <AlbumsRoot context={pageTypeFromQuery('?eName=AB12')} eventName={null} />
      </StrictMode>,
    );
    const input = await screen.findByLabelText<HTMLInputElement>('E-mail address');
    await userEvent.type(input, 'kim@');
    await waitFor(() =>
      expect([...(input.list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
        'kim@party.example',
        'kim@gmail.com',
      ]),
    );
  });
});
