import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { leadConsentVersion } from '@flashbulb/shared';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { albumPhoto, photoPage, renderAlbums } from '../../../../test/render-albums.tsx';

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';
const SEND = '/event/mini-album/send-link';
const tile = (id: number) =>
  screen.getByRole('button', { name: new RegExp(`^photo-${id}\\.jpg,`) });

const sent = (emailed: string[], sms = 0) => ({
  ok: {
    url: 'http://localhost/?mId=abc',
    emailed_addresses: emailed,
    rejected_addresses: [],
    sms_count: sms,
  },
});

describe('sending photos as a mini-album link (albums §5, §7.2)', () => {
  it('chooses photos in send mode and sends them with the page’s key, by e-mail and SMS', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(3), albumPhoto(2), albumPhoto(1)]) },
      [EVENT]: { ok: [storedEvent({ is_sms_enabled: 1, collect_leads: 0 })] },
      [SEND]: sent(['ann@example.com', 'bo@example.com'], 1),
    });
    renderAlbums('?pId=pub-key');
    await waitFor(() => expect(tile(3)).toBeTruthy());

    await user.click(screen.getByRole('button', { name: 'Send photos' }));
    // In send mode a tile toggles instead of opening the viewer.
    await user.click(tile(3));
    await user.click(tile(1));
    await user.click(tile(2));
    await user.click(tile(2));
    expect(tile(3).getAttribute('aria-pressed')).toBe('true');
    expect(tile(2).getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('2 photos chosen')).toBeTruthy();

    await user.type(screen.getByLabelText('Recipient’s name'), 'Ann');
    await user.type(screen.getByLabelText('E-mail addresses'), 'ann@example.com, bo@example.com');
    await user.type(await screen.findByLabelText('Mobile number (US)'), '(212) 555-0199');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    await screen.findByText('Sent to ann@example.com, bo@example.com, (212) 555-0199.');
    expect(api.callsTo(SEND).map((c) => c.body)).toEqual([
      {
        key_type: 'public',
        key_value: 'pub-key',
        photo_uid_array: ['uid-3', 'uid-1'],
        receiver_full_name: 'Ann',
        // A multiple e-mail input drops the spaces around commas, as browsers do.
        email_to_address_array: ['ann@example.com,bo@example.com'],
        sms_number: '(212) 555-0199',
      },
    ]);
    // Sent: the choice starts again.
    expect(screen.getByText('0 photos chosen')).toBeTruthy();
  });

  it('asks for consent where the event collects leads and shows the server’s refusal beside it', async () => {
    const user = userEvent.setup();
    // This browser already passed the event's lead gate.
    window.localStorage.setItem('fb-lead:ABCD', 'tok-earlier');
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: {
        ok: [
          storedEvent({
            is_sms_enabled: 0,
            collect_leads: 1,
            lead_params: {
              show_company_input_text: 1,
              show_phone_input_text: 0,
              show_agree_checkbox: 1,
              please_read_text: 'I agree that Gala Co may contact me.',
              privacy_policy_link: 'https://gala.example/privacy',
            },
          }),
        ],
      },
      [SEND]: { nok: 'consent_required', status: 400, field: 'receiver_consent' },
    });
    renderAlbums('?pvId=priv-key');
    await waitFor(() => expect(tile(1)).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Send photos' }));
    await user.click(tile(1));
    const consent = await screen.findByRole('checkbox', {
      name: /I agree that Gala Co may contact me\./,
    });
    expect(screen.queryByLabelText('Mobile number (US)')).toBeNull();
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
      'https://gala.example/privacy',
    );
    await user.type(screen.getByLabelText('Company'), 'Gala Co');
    await user.type(screen.getByLabelText('E-mail addresses'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The photos were not sent: Please agree before we send your photos',
    );
    expect(consent.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo(SEND)[0]?.body).toMatchObject({
      key_type: 'private',
      receiver_company_name: 'Gala Co',
      receiver_consent: 0,
    });
  });

  it('an attendee’s album names its sender; curation pages and streams offer no sending', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [storedEvent()] },
      '/attendee/retrieve': {
        ok: {
          uid: 'ABCDEFGHJKMNPQRS',
          display_uid: 'ABCD-EFGH-JKMN-PQRS',
          organisation_id: 1,
          email: null,
          is_prepaid: 0,
          unlocked: 0,
          expires_date: null,
          events: [{ name: 'AB12', full_name: 'Gala', empty_album_text: '', logo_full_path: null }],
          photo_count: 1,
        },
      },
      [SEND]: sent(['ann@example.com']),
    });
    renderAlbums('?attId=ABCD-EFGH-JKMN-PQRS');
    await waitFor(() => expect(tile(1)).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Send photos' }));
    await user.click(tile(1));
    await user.type(screen.getByLabelText('E-mail addresses'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Sent to ann@example.com.');
    expect(api.callsTo(SEND)[0]?.body).toMatchObject({
      key_type: 'attendee',
      key_value: 'ABCD-EFGH-JKMN-PQRS',
      sender_attendee_uid: 'ABCD-EFGH-JKMN-PQRS',
    });
  });

  it.each([['?eId=owner-key'], ['?pId=pub-key&kioskMode=true&mode=stream']])(
    '%s offers no sending',
    async (search) => {
      installFakeApi({
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        // The kiosk stream is switched on (else its page shows no photos at all).
        [EVENT]: { ok: [storedEvent({ opts: { ...storedEvent().opts, kioskStreamEnabled: 1 } })] },
        '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      });
      renderAlbums(search);
      await waitFor(() => expect(tile(1)).toBeTruthy());
      expect(screen.queryByRole('button', { name: 'Send photos' })).toBeNull();
    },
  );
});

describe('the lead gate', () => {
  it('asks for the lead before the album opens, sends the consent version, then shows the photos', async () => {
    window.localStorage.removeItem('fb-lead:ABCD');
    window.localStorage.removeItem('fb-lead-key:pub-key');
    const user = userEvent.setup();
    const leadParams = {
      show_company_input_text: 1 as const,
      show_phone_input_text: 0 as const,
      show_agree_checkbox: 1 as const,
      please_read_text: 'We may send you offers.',
      privacy_policy_link: 'https://gala.example/privacy',
    };
    const api = installFakeApi({
      // The server's gate: no photos without the lead's token.
      [LIST]: (body) =>
        (body as { lead_token?: string }).lead_token === 'tok-1'
          ? { ok: photoPage([albumPhoto(1)]) }
          : { nok: 'lead_required', status: 403 },
      [EVENT]: { ok: [storedEvent({ collect_leads: 1, lead_params: leadParams })] },
      '/lead/create': { ok: { lead_id: 1, lead_token: 'tok-1' } },
    });
    renderAlbums('?pId=pub-key');
    await screen.findByRole('heading', { name: 'Before you see the photos' });
    expect(screen.queryByRole('button', { name: /^photo-1\.jpg,/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
      'https://gala.example/privacy',
    );
    await user.type(screen.getByLabelText('Your name'), 'Ada');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Company'), 'Engines');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Open the album' }));
    await waitFor(() => expect(tile(1)).toBeTruthy());
    expect(api.callsTo('/lead/create')[0]?.body).toEqual({
      key_type: 'public',
      key_value: 'pub-key',
      full_name: 'Ada',
      email: 'ada@example.com',
      company_name: 'Engines',
      consent: 1,
      consent_version: leadConsentVersion(leadParams),
    });
    expect(window.localStorage.getItem('fb-lead:ABCD')).toBe('tok-1');
    expect(window.localStorage.getItem('fb-lead-key:pub-key')).toBe('tok-1');
  });

  it('offers the event’s e-mail endings to complete the addresses a guest types', async () => {
    window.localStorage.removeItem('fb-lead:ABCD');
    window.localStorage.removeItem('fb-lead-key:pub-key');
    const user = userEvent.setup();
    const emailEnds = ['gala.example', 'gmail.com'];
    const leadParams = {
      show_company_input_text: 0 as const,
      show_phone_input_text: 0 as const,
      show_agree_checkbox: 0 as const,
      please_read_text: '',
      privacy_policy_link: '',
    };
    installFakeApi({
      [LIST]: (body) =>
        (body as { lead_token?: string }).lead_token === 'tok-2'
          ? { ok: photoPage([albumPhoto(1)]) }
          : { nok: 'lead_required', status: 403 },
      [EVENT]: {
        ok: [
          storedEvent({
            collect_leads: 1,
            lead_params: leadParams,
            opts: { ...storedEvent().opts, emailEnds },
          }),
        ],
      },
      '/lead/create': { ok: { lead_id: 2, lead_token: 'tok-2' } },
    });
    /** The options of the list the input names (what the browser offers under it). */
    const offered = (input: HTMLInputElement) =>
      [...(input.list?.querySelectorAll('option') ?? [])].map((o) => o.value);
    renderAlbums('?pId=pub-key');

    // The lead gate's e-mail field.
    await screen.findByRole('heading', { name: 'Before you see the photos' });
    const leadEmail = screen.getByLabelText<HTMLInputElement>('E-mail');
    await user.type(leadEmail, 'ada');
    expect(offered(leadEmail)).toEqual(['ada@gala.example', 'ada@gmail.com']);
    await user.type(leadEmail, '@gm');
    expect(offered(leadEmail)).toEqual(['ada@gmail.com']);
    await user.type(screen.getByLabelText('Your name'), 'Ada');
    await user.type(leadEmail, 'ail.com');
    expect(offered(leadEmail)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Open the album' }));
    await waitFor(() => expect(tile(1)).toBeTruthy());

    // The send-photos form's list of addresses: the last one is completed.
    await user.click(screen.getByRole('button', { name: 'Send photos' }));
    const emails = screen.getByLabelText<HTMLInputElement>('E-mail addresses');
    await user.type(emails, 'ann@x.org, bo@ga');
    expect(offered(emails)).toEqual(['ann@x.org, bo@gala.example']);
  });

  it('asks again when the server no longer takes the token (lead deleted on request)', async () => {
    window.localStorage.setItem('fb-lead-key:pub-key', 'tok-gone');
    installFakeApi({
      [LIST]: { nok: 'lead_required', status: 403 },
      [EVENT]: { ok: [storedEvent({ collect_leads: 1 })] },
    });
    renderAlbums('?pId=pub-key');
    await screen.findByRole('heading', { name: 'Before you see the photos' });
    window.localStorage.removeItem('fb-lead-key:pub-key');
  });

  it('kiosk and stream screens send their link’s display token and ask no lead', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { ok: [storedEvent({ collect_leads: 1 })] },
    });
    renderAlbums('?pId=pub-key&kioskMode=true&display=screen-tok');
    await waitFor(() => expect(tile(1)).toBeTruthy());
    expect(screen.queryByRole('heading', { name: 'Before you see the photos' })).toBeNull();
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ display: 'screen-tok' });
  });

  it('a guest’s `display=1` the server refuses gets the lead gate, not the photos', async () => {
    const api = installFakeApi({
      [LIST]: (body) =>
        (body as { display?: string }).display === 'screen-tok'
          ? { ok: photoPage([albumPhoto(1)]) }
          : { nok: 'lead_required', status: 403 },
      [EVENT]: { ok: [storedEvent({ collect_leads: 1 })] },
    });
    renderAlbums('?pId=pub-key&mode=slideshow&display=1');
    await screen.findByRole('heading', { name: 'Before you see the photos' });
    expect(api.callsTo(LIST)[0]?.body).toMatchObject({ display: '1' });
    expect(screen.queryByRole('button', { name: /^photo-1\.jpg,/ })).toBeNull();
  });
});
