import { describe, expect, it, vi } from 'vitest';
import { API_BASE, PHOTO_STREAM_PATH } from '@flashbulb/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import {
  installAlbumApi,
  LIST,
  makePhoto,
  renderAlbum,
} from '../../../../test/console-album-kit.tsx';

const names = () =>
  within(screen.getByRole('list', { name: 'Photos' }))
    .queryAllByRole('listitem')
    .map((tile) => tile.querySelector('img')?.getAttribute('alt') ?? '');

class FakeEventSource extends EventTarget {
  static readonly OPEN = 1;
  static readonly made: FakeEventSource[] = [];
  readyState = 0;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.made.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  /** The server's side: the stream opens, then a photo message arrives. */
  opens() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  drops() {
    this.readyState = 0;
    this.dispatchEvent(new Event('error'));
  }
  photo(data: object) {
    this.dispatchEvent(new MessageEvent('photo', { data: JSON.stringify(data) }));
  }
}

describe('console album: photos arrive live', { timeout: 40_000 }, () => {
  it('opens the event owner key’s stream and shows a robot’s new photo without a reload', async () => {
    FakeEventSource.made.length = 0;
    vi.stubGlobal('EventSource', FakeEventSource);
    const api = installAlbumApi([makePhoto(1), makePhoto(2)]);
    renderAlbum();
    await waitFor(() => expect(names()).toHaveLength(2));
    const source = FakeEventSource.made.at(-1);
    expect(source?.url).toBe(
      `${API_BASE}${PHOTO_STREAM_PATH}?key_type=event_owner&key_value=owner-key`,
    );
    expect(screen.queryByTestId('album-live')).toBeNull();

    act(() => source?.opens());
    await waitFor(() => expect(screen.getByTestId('album-live')).toBeTruthy());

    // A robot's photo becomes ready on the server; the stream says so and the page asks again.
    const listCalls = api.callsTo(LIST).length;
    const fresh = makePhoto(3);
    api.store.unshift(fresh);
    act(() => source?.photo(fresh));
    await waitFor(() => expect(names()).toHaveLength(3));
    expect(names()[0]).toMatch(/^photo-003\.jpg/);
    expect(api.callsTo(LIST).length).toBeGreaterThan(listCalls);

    // A dropped connection takes the badge away (EventSource reconnects by itself).
    act(() => source?.drops());
    await waitFor(() => expect(screen.queryByTestId('album-live')).toBeNull());
  });
});
