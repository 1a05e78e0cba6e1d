import { afterEach, describe, expect, it } from 'vitest';
import { GUEST_BOOT_ELEMENT_ID } from '@flashbulb/shared';
import { render, screen, waitFor } from '@testing-library/react';
import AlbumsRoot from './albums-root.tsx';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import { installFakeApi } from '../../test/fake-api.ts';
import { albumPhoto, photoPage } from '../../test/render-albums.tsx';

/**
 * The album page reads the event and first photo page the server wrote into `guest.html`
 * instead of asking for them again; anything else in that block is ignored.
 */

const LIST = '/photo/list/retrieve';
const EVENT = '/event/full-data/retrieve';

const putBoot = (content: string) => {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = GUEST_BOOT_ELEMENT_ID;
  script.textContent = content;
  document.body.append(script);
};
const boot = (keyValue: string, photos = [albumPhoto(7), albumPhoto(6)]) =>
  JSON.stringify({
    key_type: 'public',
    key_value: keyValue,
    event_name: null,
    event: null,
    first_page: photoPage(photos, 40),
  });
const tiles = () => document.querySelectorAll('[data-photo-id]');
const renderRoot = (search: string) =>
  render(<AlbumsRoot context={pageTypeFromQuery(search)} eventName={null} />);

afterEach(() => document.getElementById(GUEST_BOOT_ELEMENT_ID)?.remove());

describe('album page boot data', () => {
  it('shows the inlined first page and asks for neither it nor the event again', async () => {
    const api = installFakeApi({
      [LIST]: { ok: photoPage([albumPhoto(1)]) },
      [EVENT]: { nok: 'invalid_key' },
    });
    putBoot(boot('pub'));
    renderRoot('?pId=pub');
    await waitFor(() => expect(tiles()).toHaveLength(2));
    expect(screen.getByText(/40 photos/)).toBeTruthy();
    expect(tiles()[0]?.getAttribute('data-photo-id')).toBe('7');
    // Read once: the block is gone.
    expect(document.getElementById(GUEST_BOOT_ELEMENT_ID)).toBeNull();
    expect(
      api.callsTo(LIST).filter((c) => (c.body as { page_number: number }).page_number === 1),
    ).toEqual([]);
    expect(api.callsTo(EVENT)).toEqual([]);
  });

  it('ignores data written for another key, and a block that is not the contract', async () => {
    for (const content of [
      boot('someone-else'),
      '{"key_type":"public"',
      boot('pub', [{ id: 'x' } as never]),
    ]) {
      const api = installFakeApi({
        [LIST]: { ok: photoPage([albumPhoto(1)]) },
        [EVENT]: { nok: 'invalid_key' },
      });
      putBoot(content);
      const view = renderRoot('?pId=pub');
      await waitFor(() => expect(tiles()).toHaveLength(1));
      expect(tiles()[0]?.getAttribute('data-photo-id')).toBe('1');
      expect(api.callsTo(LIST).length).toBeGreaterThan(0);
      view.unmount();
    }
  });
});
