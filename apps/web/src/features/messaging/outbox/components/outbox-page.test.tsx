import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OutboxMessage } from '@flashbulb/shared';
import {
  installConsoleApi,
  OWNER,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala' });
const LIST = `${OWNER}/outbox/list`;
const RESEND = `${OWNER}/outbox/resend`;

const message = (id: number, over: Partial<OutboxMessage> = {}): OutboxMessage => ({
  id,
  channel: 'mail',
  kind: 'topic.photo_ready',
  topic: 'photo_ready',
  recipient: `guest${id}@example.com`,
  sender: null,
  status: 'sent',
  attempts: 1,
  provider: 'smtp',
  provider_message_id: `<m${id}@smtp>`,
  last_error: null,
  created_date: new Date(Date.UTC(2026, 10, 1, 12, id)).toISOString(),
  sent_date: null,
  subject: 'Your photo',
  text: `Hello <script>alert(${id})</script>`,
  ...over,
});

const rows = () =>
  within(screen.getByRole('table', { name: 'Messages' }))
    .getAllByRole('row')
    .slice(1);

describe('console Outbox page', { timeout: 40_000 }, () => {
  it('lists messages with topic, status, attempts and the provider answer; reads and resends one', async () => {
    const api = installConsoleApi({
      events: [EVENT],
      routes: {
        [LIST]: (raw): FakeReply => {
          const body = raw as { channel?: string };
          const all = [
            message(2, { status: 'failed', attempts: 6, last_error: '550 mailbox unavailable' }),
            message(1),
            message(3, {
              channel: 'sms',
              kind: 'topic.album_unlocked',
              topic: 'album_unlocked',
              subject: null,
              recipient: '2125550199',
              status: 'outbox',
              attempts: 0,
              provider: null,
              provider_message_id: null,
              text: 'Your album',
            }),
          ];
          return {
            ok: {
              messages: all.filter((m) => !body.channel || m.channel === body.channel),
              topic_keys: [
                'photo_ready',
                'album_unlocked',
                'print_ready',
                'payment_receipt',
                'attendee_reminder',
              ],
            },
          };
        },
        [RESEND]: (): FakeReply => ({
          ok: { message: message(9, { status: 'queued', attempts: 0 }) },
        }),
      },
    });
    renderApp('/events/abcd/outbox');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('heading', { name: 'Messages of Summer Gala' })).toBeTruthy();
    const cells = (i: number) =>
      within(rows()[i]!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells(0).slice(1, 7)).toEqual([
      'E-mail',
      'photo_ready',
      'guest2@example.com',
      'Failed',
      '6',
      '550 mailbox unavailable',
    ]);
    expect(cells(2).slice(1, 7)).toEqual([
      'SMS',
      'album_unlocked',
      '2125550199',
      'Held (no provider)',
      '0',
      '—',
    ]);

    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: 'Read the message to guest1@example.com' }),
    );
    const text = await screen.findByTestId('outbox-text');
    // Shown as text: the markup is visible, never a tag.
    expect(text.textContent).toBe('Hello <script>alert(1)</script>');
    expect(document.querySelector('script')).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(
      screen.getByRole('button', { name: 'Resend the message to guest2@example.com' }),
    );
    await waitFor(() => expect(api.callsTo(RESEND)).toHaveLength(1));
    expect(api.callsTo(RESEND)[0]?.body).toEqual({ event_id: 7, message_id: 2 });
    expect(await screen.findByText('Sent again to guest2@example.com')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'SMS' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.callsTo(LIST).at(-1)?.body).toMatchObject({ event_id: 7, channel: 'sms' });
  });
});

describe('console Outbox of no event (super users)', { timeout: 40_000 }, () => {
  it('lists sign-in mail without an event id, reads and resends it; the menu shows it to super users only', async () => {
    const api = installConsoleApi({
      user: superUser,
      events: [EVENT],
      routes: {
        [LIST]: (): FakeReply => ({
          ok: {
            messages: [
              message(4, {
                kind: 'password_reset',
                topic: null,
                recipient: 'ann@example.com',
                status: 'outbox',
                provider: null,
                provider_message_id: null,
                subject: 'Your password reset code',
                text: 'Your code is 123456',
              }),
            ],
            topic_keys: [],
          },
        }),
        [RESEND]: (): FakeReply => ({ ok: { message: message(5, { status: 'queued' }) } }),
      },
    });
    renderApp('/outbox');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByRole('heading', { name: 'Messages of no event' })).toBeTruthy();
    expect(api.callsTo(LIST)[0]?.body).toEqual({ limit: 200 });
    expect(screen.getByRole('link', { name: 'Messages' })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Read the message to ann@example.com' }));
    expect((await screen.findByTestId('outbox-text')).textContent).toBe('Your code is 123456');
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Resend the message to ann@example.com' }));
    await waitFor(() => expect(api.callsTo(RESEND)).toHaveLength(1));
    expect(api.callsTo(RESEND)[0]?.body).toEqual({ message_id: 4 });
  });

  it('is not in an admin’s menu', async () => {
    installConsoleApi({ events: [EVENT] });
    renderApp('/events');
    await screen.findByRole('link', { name: 'Events' });
    expect(screen.queryByRole('link', { name: 'Messages' })).toBeNull();
  });
});
