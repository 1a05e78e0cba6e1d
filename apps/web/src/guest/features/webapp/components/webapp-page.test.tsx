import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { pageTypeFromQuery } from '@flashbulb/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AlbumsRoot from '../../../app/albums-root.tsx';
import { installFakeApi } from '../../../../test/fake-api.ts';
import { readableAccent } from '../../../shared/theme/accent.ts';
import { webappEvent } from '../../../../test/guest-fixtures.ts';

describe('the web-app page’s e-mail field', () => {
  it('offers the event’s e-mail endings (opts.emailEnds) to complete the address', async () => {
    installFakeApi({
      '/webapp/event/retrieve': {
        ok: { ...webappEvent, email_ends: ['party.example', 'gmail.com'] },
      },
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

const renderPage = () =>
  render(
    <StrictMode>
      <AlbumsRoot context={pageTypeFromQuery('?eName=AB12')} eventName={null} />
    </StrictMode>,
  );

describe('the web-app page’s settings', () => {
  it('wears the event’s brand colour, made readable, like the album', async () => {
    installFakeApi({
      '/webapp/event/retrieve': { ok: { ...webappEvent, accent_color: '#d9480f' } },
    });
    renderPage();
    const main = await screen.findByTestId('webapp-page');
    const { accent, onAccent } = readableAccent('#d9480f');
    expect(main.style.getPropertyValue('--fb-accent')).toBe(accent);
    expect(main.style.getPropertyValue('--fb-on-accent')).toBe(onAccent);
  });

  it('by default: the event label as the title, no chat launcher, the e-mail field', async () => {
    installFakeApi({ '/webapp/event/retrieve': { ok: webappEvent } });
    renderPage();
    const title = await screen.findByRole('heading', { level: 1, name: 'Summer party' });
    expect(title.className).not.toContain('visually-hidden');
    expect(screen.queryByRole('link', { name: /Chat with us/ })).toBeNull();
    expect(screen.queryByTestId('webapp-time-in-time')).toBeNull();
    expect(screen.getByLabelText('E-mail address')).toBeTruthy();
  });

  it('hides the event label (disableEventLabel) and shows the time-in-time text', async () => {
    installFakeApi({
      '/webapp/event/retrieve': {
        ok: {
          ...webappEvent,
          show_event_label: false,
          time_in_time_text: 'Photos arrive about ten minutes after they are taken.',
        },
      },
    });
    renderPage();
    // Hidden from sight, kept for screen readers as the page's heading.
    const title = await screen.findByRole('heading', { level: 1, name: 'Summer party' });
    expect(title.className).toContain('webapp-visually-hidden');
    expect(screen.getByTestId('webapp-time-in-time').textContent).toBe(
      'Photos arrive about ten minutes after they are taken.',
    );
  });

  it('the support chat launcher opens the configured chat in a new tab, and loads no script', async () => {
    installFakeApi({
      '/webapp/event/retrieve': {
        ok: { ...webappEvent, support_chat_url: 'https://chat.help.example/gala?lang=en' },
      },
    });
    const scriptsBefore = document.querySelectorAll('script').length;
    renderPage();
    const launcher = await screen.findByRole('link', {
      name: 'Chat with us (opens in a new tab)',
    });
    expect(launcher.getAttribute('href')).toBe('https://chat.help.example/gala?lang=en');
    expect(launcher.getAttribute('target')).toBe('_blank');
    expect(launcher.getAttribute('rel')).toContain('noopener');
    expect(document.querySelectorAll('script').length).toBe(scriptsBefore);
  });

  it('registration by card id asks for no e-mail address when the event collects none', async () => {
    const calls = installFakeApi({
      '/webapp/event/retrieve': {
        ok: { ...webappEvent, registration_type: 'byIdFirst', collect_email: false },
      },
      '/webapp/register': {
        ok: {
          attendee_uid: 'ABCD-EFGH',
          album_url: 'https://x.example/?attId=1',
          created: false,
          emailed: false,
          sms_sent: false,
        },
      },
    });
    renderPage();
    const card = await screen.findByLabelText('Code on your card');
    expect(screen.queryByLabelText(/E-mail address/)).toBeNull();
    await userEvent.type(card, 'ABCD-EFGH');
    await userEvent.click(screen.getByRole('button', { name: 'Open my album' }));
    await waitFor(() => expect(calls.callsTo('/webapp/register')).toHaveLength(1));
    expect(calls.callsTo('/webapp/register')[0]?.body).toMatchObject({
      attendee_uid: 'ABCD-EFGH',
      email: '',
    });
  });

  it('registration by card id offers the optional e-mail field when the event collects addresses', async () => {
    installFakeApi({
      '/webapp/event/retrieve': {
        ok: { ...webappEvent, registration_type: 'byIdFirst', collect_email: true },
      },
    });
    renderPage();
    await screen.findByLabelText('Code on your card');
    expect(screen.getByLabelText('E-mail address (optional)')).toBeTruthy();
  });
});

describe('the web-app page’s photo code', () => {
  it('takes the code from a booth’s card and checks it; a wrong one is said plainly', async () => {
    const api = installFakeApi({
      '/webapp/event/retrieve': { ok: webappEvent },
      '/photo/instant/retrieve': { nok: 'not_found', status: 404 },
    });
    renderPage();
    const field = await screen.findByLabelText('Photo code');
    await userEvent.type(field, 'zz2-345');
    await userEvent.click(screen.getByRole('button', { name: 'Open my photo' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No photo has this code. Check it and try again.',
    );
    expect(api.callsTo('/photo/instant/retrieve')[0]?.body).toEqual({ instant: 'AB12-ZZ2345' });
  });
});
